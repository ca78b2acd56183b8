package io.idstarter.sample;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Fleet clients that cannot be told apart, or whose secrets cannot be checked, fail the start naming the property.
 */
class FleetClientsConfigurationTests {

	@Test
	void aSha256SecretMustBeSixtyFourHexDigits() {
		IdServerProperties properties = withClient("a", IdServerProperties.SHA256_PREFIX + "not-hex");
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class).isThrownBy(properties::validate)
			.satisfies((ex) -> assertThat(ex.getName())
				.isEqualTo("id-server.clients[0].token"))
			.withMessageContaining("64 hex digits");
		IdServerProperties shortDigest = withClient("a", IdServerProperties.SHA256_PREFIX + "abcd");
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class).isThrownBy(shortDigest::validate);
		IdServerProperties good = withClient("a", IdServerProperties.SHA256_PREFIX + "0".repeat(64));
		assertThatNoException().isThrownBy(good::validate);
	}

	@Test
	void twoClientsWithOneTokenAreRefusedWhetherPlainOrDigest() throws Exception {
		String token = "shared-token-0123456789";
		IdServerProperties plain = withClient("a", token);
		plain.getClients().add(client("b", token));
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class).isThrownBy(plain::validate)
			.satisfies((ex) -> assertThat(ex.getName())
				.isEqualTo("id-server.clients[1].token"))
			.withMessageContaining("client 'a'")
			.withMessageNotContaining(token);
		IdServerProperties digest = withClient("a", token);
		digest.getClients().add(client("b", IdServerProperties.SHA256_PREFIX + HexFormat.of()
			.formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)))));
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class).isThrownBy(digest::validate);
	}

	@Test
	void aGrantWithAStarInsideIsRefused() {
		IdServerProperties properties = withClient("a", "token-a-0123456789");
		properties.getClients().get(0).setNamespaces(List.of("orders*x"));
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class).isThrownBy(properties::validate)
			.satisfies((ex) -> assertThat(ex.getName())
				.isEqualTo("id-server.clients[0].namespaces[0]"));
	}

	private static IdServerProperties withClient(String name, String token) {
		IdServerProperties properties = new IdServerProperties();
		properties.getClients().add(client(name, token));
		return properties;
	}

	private static IdServerProperties.Client client(String name, String token) {
		IdServerProperties.Client client = new IdServerProperties.Client();
		client.setName(name);
		client.setToken(token);
		return client;
	}

}
