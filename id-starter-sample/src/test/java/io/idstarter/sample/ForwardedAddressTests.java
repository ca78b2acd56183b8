package io.idstarter.sample;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With Tomcat's {@code native} handling of forwarded headers and no proxy named (the server's default
 * {@code server.tomcat.remoteip.internal-proxies} is empty), {@code X-Forwarded-For} is ignored: a client can neither
 * dodge its ban with a new header per guess nor ban another address. Clients are loopback addresses of their own.
 */
@TestPropertySource(properties = { "id-server.admin.enabled=true",
		"id-server.admin.password=" + ForwardedAddressTests.PASSWORD, "id-server.login.max-failures=3",
		"server.forward-headers-strategy=native" })
class ForwardedAddressTests extends AbstractIdServerTests {

	static final String PASSWORD = "right-password-for-tests";

	private static final String RIGHT = PASSWORD;

	@Test
	void aNewForwardedAddressPerGuessDoesNotDodgeTheBan() {
		for (int i = 0; i < 3; i++) {
			assertThat(login(this.port, "127.0.0.21", "198.51.100." + i, "guess-" + i)).isEqualTo(401);
		}
		assertThat(login(this.port, "127.0.0.21", "198.51.100.9", RIGHT)).isEqualTo(429);
	}

	@Test
	void guessesUnderAVictimsAddressDoNotBanTheVictim() {
		for (int i = 0; i < 4; i++) {
			login(this.port, "127.0.0.22", "127.0.0.23", "guess-" + i);
		}
		assertThat(login(this.port, "127.0.0.23", null, RIGHT)).isEqualTo(200);
	}

	/** An admin login from {@code from}, with {@code X-Forwarded-For: forwarded} unless null; the answer's status. */
	static int login(int port, String from, @Nullable String forwarded, String password) {
		String headers = "Authorization: " + HttpTestClient.basic("admin", password) + "\r\n"
				+ ((forwarded != null) ? "X-Forwarded-For: " + forwarded + "\r\n" : "");
		RawHttp.Response response = RawHttp.request(from, port,
				"GET /api/admin/keys HTTP/1.1\r\nHost: localhost\r\n" + headers);
		return response.status();
	}

}
