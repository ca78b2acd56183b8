package io.idstarter.sample;

import java.time.Duration;

import io.idstarter.fleetclient.ClientApplication;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How much a client-mode application logs while every ID server is down: a client of one real server and one
 * closed port draws segment and Snowflake IDs, the server stops, and the client keeps asking for a minute. Prints
 * the WARN and ERROR lines of that minute. Run by hand ({@code -Dtest=ClientModeOutageLogMeasurement}); not part of
 * the build, since it takes over a minute.
 */
@TestPropertySource(properties = { "id-server.clients[0].name=shop", "id-server.clients[0].token=shop-token-0123456789",
		"id-server.clients[0].segment-keys=outage-*", "id-server.clients[0].namespaces=fleet-client",
		"id-worker.segment.keys.outage-order.step=100" })
@ExtendWith(OutputCaptureExtension.class)
class ClientModeOutageLogMeasurement extends AbstractIdServerTests {

	private static final Duration OUTAGE = Duration.ofMinutes(1);

	@Autowired
	private ApplicationContext server;

	@Test
	void logsWhileEveryServerIsDown(CapturedOutput output) throws InterruptedException {
		String servers = "http://127.0.0.1:" + this.port + ",http://127.0.0.1:" + TestPorts.closed();
		try (ConfigurableApplicationContext client = ClientApplication.start(servers, "id-worker.http.token",
				"shop-token-0123456789", "id-worker.lease.ttl", "10s", "id-worker.lease.heartbeat", "2s",
				"id-worker.lease.safety-margin", "3s")) {
			SegmentIdGenerator segments = client.getBean(SegmentIdGenerator.class);
			SnowflakeIdGenerator snowflake = client.getBean(SnowflakeIdGenerator.class);
			segments.nextId("outage-order");
			snowflake.nextId();
			((WebServerApplicationContext) this.server).getWebServer().stop();
			int before = output.getAll().length();
			long calls = 0;
			long failures = 0;
			long end = System.nanoTime() + OUTAGE.toNanos();
			while (System.nanoTime() < end) {
				calls += 2;
				try {
					segments.nextId("outage-order");
				}
				catch (RuntimeException ex) {
					failures++;
				}
				try {
					snowflake.nextId();
				}
				catch (RuntimeException ex) {
					failures++;
				}
				Thread.sleep(10);
			}
			String minute = output.getAll().substring(before);
			long warn = minute.lines().filter((line) -> line.contains(" WARN ")).count();
			long error = minute.lines().filter((line) -> line.contains(" ERROR ")).count();
			System.out.printf("Outage of %s: %d calls, %d failed; %d WARN and %d ERROR lines%n", OUTAGE, calls,
					failures, warn, error);
			minute.lines()
				.filter((line) -> line.contains(" WARN ") || line.contains(" ERROR "))
				.forEach((line) -> System.out.println("  " + line.substring(0, Math.min(line.length(), 240))));
			assertThat(failures).as("the outage was felt").isPositive();
		}
	}

}
