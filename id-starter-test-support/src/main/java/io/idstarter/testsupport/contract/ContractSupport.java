package io.idstarter.testsupport.contract;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * What the kits share: unique names and running a task on several threads at once.
 */
final class ContractSupport {

	private ContractSupport() {
	}

	/**
	 * Returns a name no other test uses: the prefix and twelve random hex digits, from {@code [A-Za-z0-9._:-]}.
	 */
	static String unique(String prefix) {
		return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
	}

	/**
	 * Runs a task on {@code threads} threads that start together, and returns each thread's result.
	 */
	static <T> List<T> concurrently(int threads, Callable<T> task) throws Exception {
		return concurrently(threads, (thread) -> task.call());
	}

	/**
	 * Runs a task on {@code threads} threads that start together, giving each its index, and returns each thread's
	 * result in the order of the indexes.
	 */
	static <T> List<T> concurrently(int threads, IndexedTask<T> task) throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			CountDownLatch start = new CountDownLatch(1);
			List<Future<T>> futures = new ArrayList<>();
			for (int i = 0; i < threads; i++) {
				int thread = i;
				futures.add(executor.submit(() -> {
					start.await();
					return task.run(thread);
				}));
			}
			start.countDown();
			List<T> results = new ArrayList<>();
			for (Future<T> future : futures) {
				results.add(future.get(120, TimeUnit.SECONDS));
			}
			return results;
		}
		finally {
			executor.shutdownNow();
		}
	}

	/** A task that is told which of the started threads runs it. */
	@FunctionalInterface
	interface IndexedTask<T> {

		T run(int thread) throws Exception;

	}

}
