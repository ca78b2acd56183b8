package io.idstarter.sample;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * During a password-guessing storm from many addresses (none banned yet), a password check that cannot start in
 * time is answered 503 with {@code Retry-After}, never 401, and is no failed login: the admin with the right password
 * is never told it is wrong, and never banned for the storm's load. The wait for the check slot is 1 ms here, so that
 * the storm makes checks time out on any machine; 16 threads, 24 addresses of {@code 127.0.1.0/24}, 2 guesses each.
 */
@TestPropertySource(properties = { "id-server.admin.enabled=true",
		"id-server.admin.password=" + PasswordCheckStormTests.RIGHT, "id-server.login.max-failures=3",
		"id-server.login.password-check-wait=1ms" })
class PasswordCheckStormTests extends AbstractIdServerTests {

	static final String RIGHT = "right-password-for-tests";

	@Test
	void aCheckThatTimedOutIsA503AndNoFailedLogin() throws Exception {
		Map<Integer, AtomicInteger> storm = new ConcurrentHashMap<>();
		Map<Integer, AtomicInteger> admin = new ConcurrentHashMap<>();
		ExecutorService threads = Executors.newFixedThreadPool(16);
		try {
			List<Future<Integer>> calls = IntStream.range(0, 48).mapToObj((i) -> threads.submit(() -> {
				int status = login("127.0.1." + (1 + i % 24), "guess-" + i, storm);
				if (i % 6 == 0) {
					login("127.0.0.1", RIGHT, admin);
				}
				return status;
			})).toList();
			for (Future<Integer> call : calls) {
				call.get();
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(admin.keySet()).as("admin answers %s, storm answers %s", admin, storm).isSubsetOf(200, 503);
		assertThat(storm.keySet()).as("storm answers %s", storm).isSubsetOf(401, 429, 503);
		assertThat(storm.getOrDefault(503, new AtomicInteger()).get() + admin.getOrDefault(503, new AtomicInteger())
			.get()).as("503 answers: the storm made checks time out").isPositive();
		// The admin's 503s did not count: three failures would have banned it.
		assertThat(login("127.0.0.1", RIGHT, new ConcurrentHashMap<>())).isIn(200, 503);
		int status = 503;
		for (int i = 0; i < 20 && status == 503; i++) {
			status = login("127.0.0.1", RIGHT, new ConcurrentHashMap<>());
		}
		assertThat(status).isEqualTo(200);
	}

	private int login(String from, String password, Map<Integer, AtomicInteger> statuses) {
		RawHttp.Response response = RawHttp.request(from, this.port, "GET /api/admin/keys HTTP/1.1\r\nHost: localhost"
				+ "\r\nAuthorization: " + HttpTestClient.basic("admin", password) + "\r\n");
		statuses.computeIfAbsent(response.status(), (status) -> new AtomicInteger()).incrementAndGet();
		if (response.status() == 503) {
			assertThat(response.headers()).as(response.text()).contains("retry-after: 1");
			assertThat(response.body()).contains("\"code\":\"password-check-busy\"");
		}
		return response.status();
	}

}
