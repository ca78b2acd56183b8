package io.idstarter.sample;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static io.idstarter.sample.ForwardedAddressTests.login;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Behind a named proxy ({@code server.tomcat.remoteip.internal-proxies} matching 127.0.0.1), failed logins are counted
 * per forwarded address of the proxy's requests, and per connection address of everyone else: a client that is no
 * proxy cannot ban an address behind the proxy. Clients are loopback addresses of their own.
 */
@TestPropertySource(properties = { "id-server.admin.enabled=true",
		"id-server.admin.password=" + ForwardedAddressTests.PASSWORD, "id-server.login.max-failures=3",
		"server.forward-headers-strategy=native", "server.tomcat.remoteip.internal-proxies=127\\\\.0\\\\.0\\\\.1" })
class ForwardedAddressProxyTests extends AbstractIdServerTests {

	private static final String RIGHT = ForwardedAddressTests.PASSWORD;

	@Test
	void theProxysForwardedAddressesAreCountedApart() {
		for (int i = 0; i < 3; i++) {
			assertThat(login(this.port, "127.0.0.1", "198.51.100.1", "guess-" + i)).isEqualTo(401);
		}
		assertThat(login(this.port, "127.0.0.1", "198.51.100.1", RIGHT)).isEqualTo(429);
		assertThat(login(this.port, "127.0.0.1", "198.51.100.2", RIGHT)).isEqualTo(200);
	}

	@Test
	void aClientThatIsNoProxyCannotBanAnAddressBehindTheProxy() {
		for (int i = 0; i < 4; i++) {
			login(this.port, "127.0.0.24", "198.51.100.3", "guess-" + i);
		}
		assertThat(login(this.port, "127.0.0.24", "198.51.100.4", RIGHT)).isEqualTo(429);
		assertThat(login(this.port, "127.0.0.1", "198.51.100.3", RIGHT)).isEqualTo(200);
	}

}
