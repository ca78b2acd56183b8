package io.idstarter.fleetclient;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.LongAdder;

import io.idstarter.IdWorker;
import io.idstarter.sample.IdServerApplication;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.store.http.IdServerClient;
import io.idstarter.store.http.IdServerStatus;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A load measurement, run by hand (not in CI): segment IDs per second of a client-mode application at 1 and 2
 * threads, against the server's own in-process generator on the same JVM (JDBC store on H2), and the client's round
 * trips to the server per million IDs with the dynamic step. Arguments: seconds per measurement (default 10).
 */
public final class ClientModeLoad {

	private ClientModeLoad() {
	}

	public static void main(String[] args) throws Exception {
		long seconds = (args.length > 0) ? Long.parseLong(args[0]) : 10;
		String token = "load-token-0123456789";
		ConfigurableApplicationContext server = SpringApplication.run(IdServerApplication.class,
				"--server.port=0", "--id-server.data-dir=" + Files.createTempDirectory("id-load"),
				"--id-server.clients[0].name=load", "--id-server.clients[0].token=" + token,
				"--id-server.clients[0].namespaces=fleet-client", "--id-server.clients[0].segment-keys=order",
				"--id-server.clients[0].max-ranges-per-second=10000",
				"--logging.level.root=WARN", "--spring.main.banner-mode=off");
		int port = ((WebServerApplicationContext) server).getWebServer().getPort();
		try (ConfigurableApplicationContext client = ClientApplication.start("http://127.0.0.1:" + port,
				"id-worker.http.token", token, "logging.level.root", "WARN", "spring.main.banner-mode", "off")) {
			SegmentIdGenerator inProcess = server.getBean("segmentIdWorker", SegmentIdGenerator.class);
			SegmentIdGenerator overHttp = client.getBean(SegmentIdGenerator.class);
			IdServerClient servers = client.getBean(IdServerClient.class);
			for (int threads : new int[] { 1, 2 }) {
				measure("warm-up in-process", inProcess, threads, seconds / 2);
				measure("warm-up client mode", overHttp, threads, seconds / 2);
				double local = measure("in-process (JDBC on H2)", inProcess, threads, seconds);
				long callsBefore = calls(servers);
				long[] issued = new long[1];
				double http = measure("client mode (HTTP)", overHttp, threads, seconds, issued);
				long calls = calls(servers) - callsBefore;
				System.out.printf("threads=%d  client/in-process = %.3f  round trips: %d for %,d IDs = %.1f per million%n",
						threads, http / local, calls, issued[0], calls * 1e6 / issued[0]);
			}
		}
		finally {
			server.close();
		}
	}

	private static long calls(IdServerClient servers) {
		return servers.servers().stream().mapToLong(IdServerStatus::calls).sum();
	}

	private static double measure(String name, IdWorker ids, int threads, long seconds) throws InterruptedException {
		return measure(name, ids, threads, seconds, new long[1]);
	}

	private static double measure(String name, IdWorker ids, int threads, long seconds, long[] issued)
			throws InterruptedException {
		LongAdder count = new LongAdder();
		CountDownLatch done = new CountDownLatch(threads);
		long end = System.nanoTime() + seconds * 1_000_000_000L;
		List<Thread> workers = new ArrayList<>();
		long start = System.nanoTime();
		for (int t = 0; t < threads; t++) {
			Thread worker = new Thread(() -> {
				long local = 0;
				long sink = 0;
				while (System.nanoTime() < end) {
					for (int i = 0; i < 1000; i++) {
						sink += ids.nextId("order");
					}
					local += 1000;
				}
				count.add(local + (sink == 42 ? 1 : 0));
				done.countDown();
			});
			workers.add(worker);
			worker.start();
		}
		done.await();
		double perSecond = count.sum() / ((System.nanoTime() - start) / 1e9);
		issued[0] = count.sum();
		System.out.printf("%-28s threads=%d  %,.0f IDs/s%n", name, threads, perSecond);
		return perSecond;
	}

}
