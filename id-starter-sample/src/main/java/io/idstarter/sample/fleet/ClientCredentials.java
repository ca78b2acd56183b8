package io.idstarter.sample.fleet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;

import io.idstarter.sample.IdServerProperties;
import org.jspecify.annotations.Nullable;

/**
 * The fleet clients' secrets, kept as SHA-256 digests and compared in constant time: a check costs microseconds,
 * so wrong guesses cannot load the request threads (the secrets are long random strings, not passwords people
 * chose, so a slow hash would add nothing). Every check compares against every client, so its time does not tell
 * which client or which part of a secret matched.
 */
final class ClientCredentials {

	private static final byte[] NONE = new byte[32];

	private final List<Client> clients;

	ClientCredentials(List<IdServerProperties.Client> clients) {
		this.clients = clients.stream()
			.map((client) -> new Client(String.valueOf(client.getName()), digestOf(client.getToken()),
					digestOf(client.getPassword())))
			.toList();
	}

	boolean isEmpty() {
		return this.clients.isEmpty();
	}

	/**
	 * Returns the client an {@code Authorization} header belongs to.
	 * @param authorization the header: {@code Bearer <token>} or {@code Basic <base64(name:password)>}
	 * @return the client's name, or {@code null} if the header matches no client
	 */
	@Nullable String authenticate(String authorization) {
		if (authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
			byte[] digest = sha256(authorization.substring(7).trim());
			String found = null;
			for (Client client : this.clients) {
				if (client.token != null && MessageDigest.isEqual(client.token, digest)) {
					found = client.name;
				}
			}
			return found;
		}
		if (authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
			String decoded;
			try {
				decoded = new String(Base64.getDecoder().decode(authorization.substring(6).trim()),
						StandardCharsets.UTF_8);
			}
			catch (IllegalArgumentException ex) {
				return null;
			}
			int colon = decoded.indexOf(':');
			if (colon < 0) {
				return null;
			}
			String name = decoded.substring(0, colon);
			byte[] digest = sha256(decoded.substring(colon + 1));
			String found = null;
			for (Client client : this.clients) {
				boolean matches = MessageDigest.isEqual((client.password != null) ? client.password : NONE, digest);
				if (matches && client.password != null && client.name.equals(name)) {
					found = client.name;
				}
			}
			return found;
		}
		return null;
	}

	private static byte @Nullable [] digestOf(@Nullable String secret) {
		return (secret != null) ? IdServerProperties.digest(secret) : null;
	}

	static byte[] sha256(String value) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
		}
	}

	private record Client(String name, byte @Nullable [] token, byte @Nullable [] password) {
	}

}
