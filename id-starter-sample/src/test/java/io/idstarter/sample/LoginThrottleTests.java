package io.idstarter.sample;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.idstarter.sample.admin.LoginThrottle;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failed logins are limited per client address and login: past the limit, that login from that address is refused
 * with 429 before any password is checked, even the right one, while other logins from the address (a fleet client
 * behind the same NAT) and the ID endpoints keep being served. {@code X-Forwarded-For} is ignored in the default
 * setup. Bans and rates are logged, not each failure, and nothing a client sends can start a log line. Each test is
 * a client of its own loopback address.
 */
@TestPropertySource(properties = { "id-server.admin.enabled=true", "id-server.admin.password=right-password-for-tests",
		"id-server.login.max-failures=3", "id-server.login.ban-time=1m", "id-server.clients[0].name=orders",
		"id-server.clients[0].token=orders-token-0123456789",
		"logging.level.io.idstarter.sample.admin.LoginThrottle=debug" })
@ExtendWith(OutputCaptureExtension.class)
class LoginThrottleTests extends AbstractIdServerTests {

	private static final String RIGHT = "right-password-for-tests";

	@Autowired
	private LoginThrottle throttle;

	@Test
	void wrongPasswordsAreLimitedPerAddressWhateverItsForwardedHeaderSays(CapturedOutput output) {
		String from = "127.0.0.11";
		for (int i = 0; i < 3; i++) {
			RawHttp.Response refused = get(from, "/api/admin/keys", "Authorization: " + HttpTestClient.basic("admin",
					"guess-" + i) + "\r\nX-Forwarded-For: 203.0.113." + i + "\r\n");
			assertThat(refused.status()).as(refused.text()).isEqualTo(401);
		}
		RawHttp.Response banned = get(from, "/api/admin/keys", "Authorization: " + HttpTestClient.basic("admin", RIGHT)
				+ "\r\nX-Forwarded-For: 203.0.113.99\r\n");
		assertThat(banned.status()).as(banned.text()).isEqualTo(429);
		assertThat(banned.body()).contains("\"code\":\"too-many-failed-logins\"");
		assertThat(banned.headers()).anySatisfy((header) -> assertThat(header).startsWith("retry-after: "));
		assertThat(output).contains("3 failed logins from 127.0.0.11 as 'admin' (latest on /api/admin/keys): "
				+ "refused for 60s");
		assertThat(get(from, "/api/segment/get/order", "").status()).isEqualTo(200);
	}

	@Test
	void anAdminBanDoesNotRefuseAFleetClientAtTheSameAddress() {
		String from = "127.0.0.12";
		for (int i = 0; i < 4; i++) {
			get(from, "/api/admin/keys", "Authorization: " + HttpTestClient.basic("admin", "guess-" + i) + "\r\n");
		}
		assertThat(get(from, "/api/admin/keys", "Authorization: " + HttpTestClient.basic("admin", RIGHT) + "\r\n")
			.status()).isEqualTo(429);
		RawHttp.Response fleet = get(from, "/api/fleet/whoami", "Authorization: Bearer orders-token-0123456789\r\n");
		assertThat(fleet.status()).as(fleet.text()).isEqualTo(200);
		assertThat(get(from, "/api/fleet/whoami", "Authorization: Bearer wrong-token-0123456789\r\n").status())
			.isEqualTo(401);
	}

	@Test
	void aFleetBanDoesNotRefuseTheFleetClientsValidCredentials() {
		String from = "127.0.0.13";
		for (int i = 0; i < 4; i++) {
			get(from, "/api/fleet/whoami", "Authorization: Bearer wrong-token-012345678" + i + "\r\n");
		}
		assertThat(get(from, "/api/fleet/whoami", "Authorization: Bearer wrong-token-0123456789\r\n").status())
			.isEqualTo(429);
		assertThat(get(from, "/api/fleet/whoami", "Authorization: Bearer orders-token-0123456789\r\n").status())
			.isEqualTo(200);
	}

	@Test
	void aUserNameCannotForgeALogLine(CapturedOutput output) {
		get("127.0.0.14", "/api/admin/keys",
				"Authorization: " + HttpTestClient.basic("admin\nFORGED: admin logged in", "x") + "\r\n");
		this.throttle.logSummary();
		assertThat(output.getOut().lines()).noneMatch((line) -> line.startsWith("FORGED"));
	}

	@Test
	void failedLoginsAreLoggedAsACountNotOneByOne(CapturedOutput output) {
		get("127.0.0.15", "/api/admin/keys", "Authorization: " + HttpTestClient.basic("admin", "guess") + "\r\n");
		assertThat(output.getOut().lines().filter((line) -> line.contains(" WARN ") && line.contains("127.0.0.15")))
			.isEmpty();
		this.throttle.logSummary();
		assertThat(output).containsPattern("\\d+ failed logins in the latest minute");
	}

	private RawHttp.Response get(String from, String path, String headers) {
		return RawHttp.request(from, this.port, "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n" + headers);
	}

}
