package io.idstarter.sample;

import java.net.http.HttpResponse;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static io.idstarter.sample.IdServerEndpointsTests.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failed logins are limited per client address and logged: past the limit, the address is refused with 429 before
 * any password is checked, even with the right one, while the ID endpoints keep answering.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "id-server.admin.enabled=true", "id-server.admin.password=right-password-for-tests",
				"id-server.login.max-failures=3", "id-server.login.ban-time=1m" })
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class LoginThrottleTests {

	private static final Path dataDir = TestDataDirs.create("throttle");

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("id-server.data-dir", dataDir::toString);
	}

	@LocalServerPort
	private int port;

	@Test
	void wrongPasswordsAreLimitedPerAddressAndLogged(CapturedOutput output) {
		HttpTestClient http = new HttpTestClient(this.port);
		for (int i = 0; i < 3; i++) {
			assertProblem(http.get("/api/admin/keys", "Authorization", HttpTestClient.basic("admin", "guess-" + i)),
					401, "Authentication required", "unauthorized");
		}
		HttpResponse<String> banned = http.get("/api/admin/keys", "Authorization",
				HttpTestClient.basic("admin", "right-password-for-tests"));
		assertProblem(banned, 429, "Too many failed logins", "too-many-failed-logins");
		assertThat(banned.headers().firstValue("Retry-After")).hasValueSatisfying(
				(seconds) -> assertThat(Long.parseLong(seconds)).isBetween(1L, 60L));
		assertThat(output).contains("Failed login from 127.0.0.1 as 'admin' on /api/admin/keys (1 of 3",
				"address refused for 60s");
		assertThat(http.get("/api/segment/get/order").statusCode()).isEqualTo(200);
	}

}
