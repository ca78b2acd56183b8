package io.idstarter.segment;

import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * The threads of one segment generator: the prefetch executor that runs store calls (the application's, or a pool of
 * its own), the scheduler that retries failed fetches and refreshes the keys, and the dispatcher that hands requested
 * fetches from callers to the prefetch executor.
 */
final class SegmentExecutors {

	/** Threads the prefetch pool created when no executor is given keeps while idle. */
	static final int PREFETCH_THREADS = 4;

	/**
	 * Most threads of that pool: while store calls hang, more threads are started, so that hanging keys (each holds
	 * at most one, a key having at most one store call in flight) do not stall the fetches of the others. A fetch
	 * refused beyond this is retried later.
	 */
	static final int MAX_PREFETCH_THREADS = 64;

	/** Runs the store calls and the key refresh; the application's executor or {@code ownPrefetchExecutor}. */
	private final Executor prefetchExecutor;

	/** The pool created because no executor was given, shut down on close; null for the application's executor. */
	private final @Nullable ThreadPoolExecutor ownPrefetchExecutor;

	/** One daemon thread: the dispatcher's poll, the retries of failed fetches and the periodic key refresh. */
	private final ScheduledThreadPoolExecutor scheduler;

	private final PrefetchDispatcher dispatcher;

	/**
	 * Creates the threads of a generator.
	 * @param prefetchExecutor the application's executor for store calls, never shut down here, or {@code null} for
	 * a pool of daemon threads that {@link #shutdown()} shuts down
	 */
	SegmentExecutors(@Nullable Executor prefetchExecutor) {
		if (prefetchExecutor != null) {
			this.prefetchExecutor = prefetchExecutor;
			this.ownPrefetchExecutor = null;
		}
		else {
			this.ownPrefetchExecutor = newPrefetchExecutor();
			this.prefetchExecutor = this.ownPrefetchExecutor;
		}
		this.scheduler = newScheduler();
		this.dispatcher = new PrefetchDispatcher(this.scheduler);
	}

	Executor prefetchExecutor() {
		return this.prefetchExecutor;
	}

	ScheduledThreadPoolExecutor scheduler() {
		return this.scheduler;
	}

	PrefetchDispatcher dispatcher() {
		return this.dispatcher;
	}

	/** Stops the scheduler at once and lets the own prefetch pool finish its store calls; idempotent. */
	void shutdown() {
		this.scheduler.shutdownNow();
		if (this.ownPrefetchExecutor != null) {
			this.ownPrefetchExecutor.shutdown();
		}
	}

	private static ThreadPoolExecutor newPrefetchExecutor() {
		// A hand-off queue: a fetch never waits behind one that hangs; a thread is started instead, up to the maximum.
		ThreadPoolExecutor executor = new ThreadPoolExecutor(PREFETCH_THREADS, MAX_PREFETCH_THREADS, 60,
				TimeUnit.SECONDS, new SynchronousQueue<>(), daemonThreads("id-segment-prefetch-"));
		executor.allowCoreThreadTimeOut(true);
		return executor;
	}

	private static ScheduledThreadPoolExecutor newScheduler() {
		ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1, daemonThreads("id-segment-refresh-"));
		scheduler.setRemoveOnCancelPolicy(true);
		scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
		return scheduler;
	}

	private static ThreadFactory daemonThreads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
