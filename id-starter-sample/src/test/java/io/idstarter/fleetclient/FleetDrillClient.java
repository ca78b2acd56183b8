package io.idstarter.fleetclient;

import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * One client JVM of the fleet drill: a client-mode application that takes segment and Snowflake IDs in ticks until
 * a stop file appears, writing every ID to a file (8 bytes each, big-endian) and every failure and recovery to an
 * event file. Exits 0 after a graceful shutdown (which gives the worker ID back).
 *
 * <p>Arguments: directory, servers, token, key, segment IDs per tick, Snowflake IDs per tick, tick milliseconds.
 */
public final class FleetDrillClient {

	private FleetDrillClient() {
	}

	public static void main(String[] args) throws Exception {
		Path dir = Path.of(args[0]);
		String servers = args[1];
		String token = args[2];
		String key = args[3];
		int segmentsPerTick = Integer.parseInt(args[4]);
		int snowflakesPerTick = Integer.parseInt(args[5]);
		long tickMillis = Long.parseLong(args[6]);
		Files.createDirectories(dir);
		Path stop = dir.resolve("stop");
		long segments = 0;
		long snowflakes = 0;
		long failures = 0;
		try (ConfigurableApplicationContext context = ClientApplication.start(servers, "id-worker.http.token", token,
				"id-worker.segment.dynamic-step.enabled", "false", "id-worker.segment.max-wait", "500ms",
				"id-worker.lease.ttl", "6s", "id-worker.lease.heartbeat", "1500ms", "id-worker.lease.safety-margin",
				"1s", "id-worker.lease.cache-file", dir.resolve("worker-id").toString(),
				"id-worker.http.read-timeout", "1500ms", "id-worker.http.retry.max-attempts", "3", "id-worker.http.retry.initial-backoff", "20ms",
				"id-worker.http.retry.max-backoff", "200ms", "spring.main.banner-mode", "off");
				DataOutputStream segmentOut = new DataOutputStream(
						new BufferedOutputStream(new FileOutputStream(dir.resolve("segment.ids").toFile()), 1 << 16));
				DataOutputStream snowflakeOut = new DataOutputStream(
						new BufferedOutputStream(new FileOutputStream(dir.resolve("snowflake.ids").toFile()), 1 << 16));
				PrintWriter events = new PrintWriter(Files.newBufferedWriter(dir.resolve("events.log"),
						StandardCharsets.UTF_8), true)) {
			SegmentIdGenerator segmentIds = context.getBean(SegmentIdGenerator.class);
			SnowflakeIdGenerator snowflakeIds = context.getBean(SnowflakeIdGenerator.class);
			Files.writeString(dir.resolve("ready"), "ready");
			boolean segmentFailing = false;
			boolean snowflakeFailing = false;
			while (!Files.exists(stop)) {
				long tickStart = System.nanoTime();
				try {
					for (int i = 0; i < segmentsPerTick; i++) {
						segmentOut.writeLong(segmentIds.nextId(key));
						segments++;
					}
					if (segmentFailing) {
						events.println(System.currentTimeMillis() + " RECOVER segment");
						segmentFailing = false;
					}
				}
				catch (RuntimeException ex) {
					failures++;
					if (!segmentFailing) {
						events.println(System.currentTimeMillis() + " FAIL segment " + chain(ex));
						segmentFailing = true;
					}
				}
				try {
					for (int i = 0; i < snowflakesPerTick; i++) {
						snowflakeOut.writeLong(snowflakeIds.nextId());
						snowflakes++;
					}
					if (snowflakeFailing) {
						events.println(System.currentTimeMillis() + " RECOVER snowflake");
						snowflakeFailing = false;
					}
				}
				catch (RuntimeException ex) {
					failures++;
					if (!snowflakeFailing) {
						events.println(System.currentTimeMillis() + " FAIL snowflake " + chain(ex));
						snowflakeFailing = true;
					}
				}
				long sleep = tickMillis - (System.nanoTime() - tickStart) / 1_000_000;
				if (sleep > 0) {
					Thread.sleep(sleep);
				}
			}
			events.println(System.currentTimeMillis() + " DONE segments=" + segments + " snowflakes=" + snowflakes
					+ " failures=" + failures + " workerId=" + snowflakeIds.workerId());
		}
		catch (IOException ex) {
			throw ex;
		}
		System.exit(0);
	}

	/** The messages of an exception and its causes, on one line. */
	static String chain(Throwable ex) {
		StringBuilder text = new StringBuilder();
		for (Throwable cause = ex; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
			if (!text.isEmpty()) {
				text.append(" <- ");
			}
			text.append(cause.getClass().getSimpleName()).append(": ").append(cause.getMessage());
		}
		return text.toString().replace('\n', ' ');
	}

}
