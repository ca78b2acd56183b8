package io.idstarter.sample.fleet;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.idstarter.lease.LeaseSettings;
import io.idstarter.sample.IdServerProperties;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * What each fleet client may act on: the lease namespaces and segment keys granted to it under
 * {@code id-server.clients}, none by default. This server's own lease namespace is never granted: a configuration
 * that would grant it fails the start.
 */
@Component
public class FleetGrants {

	/** Grants per client name; fixed at start. */
	private final Map<String, Grants> byClient = new HashMap<>();

	private final String serverNamespace;

	FleetGrants(IdServerProperties properties, Environment environment) {
		this.serverNamespace = environment.getProperty("id-worker.lease.namespace",
				environment.getProperty("spring.application.name", LeaseSettings.DEFAULT_NAMESPACE));
		List<IdServerProperties.Client> clients = properties.getClients();
		for (int i = 0; i < clients.size(); i++) {
			IdServerProperties.Client client = clients.get(i);
			String property = "id-server.clients[" + i + "]";
			for (int j = 0; j < client.getNamespaces().size(); j++) {
				String grant = client.getNamespaces().get(j);
				if (matches(grant, this.serverNamespace)) {
					throw new InvalidConfigurationPropertyValueException(property + ".namespaces[" + j + "]", grant,
							"grants this server's own worker-lease namespace '" + this.serverNamespace
									+ "' (id-worker.lease.namespace, else spring.application.name): a client holding "
									+ "one of its worker IDs could make this server issue duplicate IDs; grant the "
									+ "client a namespace of its own");
				}
			}
			this.byClient.put(String.valueOf(client.getName()),
					new Grants(property, List.copyOf(client.getNamespaces()), List.copyOf(client.getSegmentKeys()),
							client.getMaxLeases(), client.getMaxRangesPerSecond()));
		}
	}

	/**
	 * Refuses a lease call in a namespace not granted to the client.
	 * @param client the authenticated client
	 * @param namespace the namespace it names
	 * @throws FleetRefusedException (403) if the namespace is not granted
	 */
	void checkNamespace(String client, String namespace) {
		Grants grants = grants(client);
		if (!anyMatches(grants.namespaces, namespace) || namespace.equals(this.serverNamespace)) {
			throw FleetRefusedException.notGranted(client, "lease namespace", namespace,
					grants.property + ".namespaces");
		}
	}

	/**
	 * Refuses a range of a key not granted to the client.
	 * @param client the authenticated client
	 * @param key the key it names
	 * @throws FleetRefusedException (403) if the key is not granted
	 */
	void checkKey(String client, String key) {
		Grants grants = grants(client);
		if (!anyMatches(grants.keys, key)) {
			throw FleetRefusedException.notGranted(client, "segment key", key, grants.property + ".segment-keys");
		}
	}

	boolean mayDraw(String client, String key) {
		return anyMatches(grants(client).keys, key);
	}

	int maxLeases(String client) {
		return grants(client).maxLeases;
	}

	int maxRangesPerSecond(String client) {
		return grants(client).maxRangesPerSecond;
	}

	private Grants grants(String client) {
		Grants grants = this.byClient.get(client);
		if (grants == null) {
			throw new IllegalStateException("no fleet client named '" + client + "' is configured");
		}
		return grants;
	}

	private static boolean anyMatches(List<String> grants, String name) {
		for (String grant : grants) {
			if (matches(grant, name)) {
				return true;
			}
		}
		return false;
	}

	/** An exact name, or a prefix followed by '*'. */
	private static boolean matches(String grant, String name) {
		return grant.endsWith("*") ? name.startsWith(grant.substring(0, grant.length() - 1)) : grant.equals(name);
	}

	private record Grants(String property, List<String> namespaces, List<String> keys, int maxLeases,
			int maxRangesPerSecond) {
	}

}
