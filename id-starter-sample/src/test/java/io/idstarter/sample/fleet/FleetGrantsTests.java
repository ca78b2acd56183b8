package io.idstarter.sample.fleet;

import java.util.List;

import io.idstarter.sample.IdServerProperties;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Grants: exact names or prefixes, none by default, and never this server's own lease namespace.
 */
class FleetGrantsTests {

	@Test
	void theServersOwnNamespaceCannotBeGrantedByNameOrPrefix() {
		MockEnvironment environment = new MockEnvironment().withProperty("spring.application.name", "id-server");
		for (String grant : List.of("id-server", "id-*", "*")) {
			assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
				.isThrownBy(() -> new FleetGrants(properties(grant), environment))
				.satisfies((ex) -> assertThat(ex.getName()).isEqualTo("id-server.clients[0].namespaces[0]"))
				.withMessageContaining("own worker-lease namespace 'id-server'");
		}
		MockEnvironment renamed = new MockEnvironment().withProperty("spring.application.name", "id-server")
			.withProperty("id-worker.lease.namespace", "servers");
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> new FleetGrants(properties("serv*"), renamed));
		new FleetGrants(properties("id-server"), renamed).checkNamespace("a", "id-server");
	}

	@Test
	void namesArePrefixesOnlyWithAStarAndNothingIsGrantedByDefault() {
		FleetGrants grants = new FleetGrants(properties("orders", "shop-*"),
				new MockEnvironment().withProperty("spring.application.name", "id-server"));
		grants.checkNamespace("a", "orders");
		grants.checkNamespace("a", "shop-eu");
		assertThatExceptionOfType(FleetRefusedException.class).isThrownBy(() -> grants.checkNamespace("a", "orders-2"))
			.withMessageContaining("id-server.clients[0].namespaces");
		assertThatExceptionOfType(FleetRefusedException.class).isThrownBy(() -> grants.checkKey("a", "orders"))
			.withMessageContaining("id-server.clients[0].segment-keys");
		assertThat(grants.mayDraw("a", "orders")).isFalse();
	}

	private static IdServerProperties properties(String... namespaces) {
		IdServerProperties properties = new IdServerProperties();
		IdServerProperties.Client client = new IdServerProperties.Client();
		client.setName("a");
		client.setToken("token-a-0123456789");
		client.setNamespaces(List.of(namespaces));
		properties.getClients().add(client);
		return properties;
	}

}
