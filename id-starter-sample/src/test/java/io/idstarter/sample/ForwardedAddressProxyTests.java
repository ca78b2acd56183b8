package io.idstarter.sample;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static io.idstarter.sample.ForwardedAddressTests.login;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Behind a named proxy ({@code server.tomcat.remoteip.internal-proxies} matching 127.0.0.1), failed logins are counted
 * per forwarded address of the proxy's requests, and per connection address of everyone else: a client that is no
 * proxy cannot ban an address behind the proxy. Clients are loopback addresses of their own.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "id-server.admin.enabled=true", "id-server.admin.password=" + ForwardedAddressTests.PASSWORD,
				"id-server.login.max-failures=3",
				"server.forward-headers-strategy=native",
				"server.tomcat.remoteip.internal-proxies=127\\\\.0\\\\.0\\\\.1" })
@DirtiesContext
class ForwardedAddressProxyTests {

	private static final String RIGHT = ForwardedAddressTests.PASSWORD;

	private static final Path dataDir = TestDataDirs.create("forwarded-proxy");

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("id-server.data-dir", dataDir::toString);
	}

	@LocalServerPort
	private int port;

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
