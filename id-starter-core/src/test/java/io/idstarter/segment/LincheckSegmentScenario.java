package io.idstarter.segment;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import io.idstarter.IdWorkerListener;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;

/**
 * One key's double buffer under model checking: ranges of 2 (every first claim of a range requests the next, every
 * second one switches), a close that gives the unused tails back, a fetch queue whose tasks a waiting caller may run before the submitting "pool" does, and a
 * record of every ID handed out, checked after each execution.
 */
final class LincheckSegmentScenario {

	private static final ScheduledExecutorService SCHEDULER = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "lincheck-segment-retries");
		thread.setDaemon(true);
		return thread;
	});

	private static final ScheduledExecutorService STOPPED_SCHEDULER = stoppedScheduler();

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	private final QueuedExecutor pool = new QueuedExecutor();

	/**
	 * Hands requested fetches to the pool only when {@link #pool()} drains it: its scheduler is shut down, so no poll
	 * runs outside the model checker's threads.
	 */
	private final PrefetchDispatcher dispatcher = new PrefetchDispatcher(STOPPED_SCHEDULER);

	final SegmentBuffer buffer;

	/** Every tail the store took back in this execution. */
	private final List<SegmentBuffer.Tail> givenBack = Collections.synchronizedList(new ArrayList<>());

	/** Every ID handed out in this execution. */
	private final List<Long> issued = Collections.synchronizedList(new ArrayList<>());

	LincheckSegmentScenario(int threadChunkSize) {
		this.store.createKey("k", 0, 2, "");
		SegmentOptions options = SegmentOptions.builder()
			.threadChunkSize(threadChunkSize)
			.prefetchThreshold(0.5)
			.maxWait(Duration.ofSeconds(5))
			.dynamicStep(new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 1))
			.build();
		SegmentBufferContext context = new SegmentBufferContext(this.store, options, new ManualTime(),
				IdWorkerListener.NONE, this.pool, this.dispatcher, SCHEDULER, SegmentMarks.inMemory());
		this.buffer = new SegmentBuffer("k", context, (removed) -> {
		});
		// The first range's fetch runs here, before the threads start.
		this.issued.add(this.buffer.nextId());
	}

	void nextId() {
		try {
			this.issued.add(this.buffer.nextId());
		}
		catch (IllegalStateException ex) {
			// closed: nothing was issued
		}
	}

	void nextIds() {
		long[] ids;
		try {
			ids = this.buffer.nextIds(3);
		}
		catch (IllegalStateException ex) {
			return;
		}
		for (long id : ids) {
			this.issued.add(id);
		}
	}

	/**
	 * The generator closing: waiters fail, and the unused tails of the current and the prefetched range go back to the
	 * store; callers in flight must not get a number of a tail.
	 */
	void close() {
		this.buffer.retire(/* keyRemoved= */ false);
		this.givenBack.addAll(this.buffer.giveBack());
	}

	void pool() {
		this.dispatcher.drain();
		this.pool.runOne();
	}

	/**
	 * Throws unless every ID handed out was allocated by the store, handed out once, and not in a tail given back.
	 */
	void validate() {
		long allocatedEnd = this.store.maxId("k").orElseThrow();
		Set<Long> seen = new HashSet<>();
		synchronized (this.issued) {
			for (long id : this.issued) {
				if (id < 0 || id >= allocatedEnd) {
					throw new IllegalStateException(
							"ID " + id + " outside the allocated [0, " + allocatedEnd + "): " + this.issued);
				}
				if (!seen.add(id)) {
					throw new IllegalStateException("ID " + id + " handed out twice: " + this.issued);
				}
				synchronized (this.givenBack) {
					for (SegmentBuffer.Tail tail : this.givenBack) {
						if (id >= tail.cursor() && id < tail.end()) {
							throw new IllegalStateException("ID " + id + " handed out from a tail given back, " + tail
									+ ": " + this.issued);
						}
					}
				}
			}
		}
	}

	/**
	 * Bounded so that a check stays within seconds on a quiet machine: 3 threads of 2 operations, plus one before and
	 * one after, 2 scenarios of 100 interleavings each. A non-atomic cursor claim is found within these bounds ("ID 1
	 * handed out twice").
	 */
	static void check(Class<?> scenario) {
		new ModelCheckingOptions().threads(3)
			.actorsPerThread(2)
			.actorsBefore(1)
			.actorsAfter(1)
			.iterations(2)
			.invocationsPerIteration(100)
			.check(scenario);
	}

	private static ScheduledExecutorService stoppedScheduler() {
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
		scheduler.shutdown();
		return scheduler;
	}

	/**
	 * Queues a task, then runs the oldest queued one on the submitting thread, which plays the pool thread: between
	 * the two, a waiting caller may claim the queued fetch and run it itself, and the pool's run then does nothing.
	 */
	static final class QueuedExecutor implements Executor {

		private final ArrayDeque<Runnable> queue = new ArrayDeque<>();

		@Override
		public void execute(Runnable task) {
			synchronized (this.queue) {
				this.queue.add(task);
			}
			runOne();
		}

		void runOne() {
			Runnable task;
			synchronized (this.queue) {
				task = this.queue.poll();
			}
			if (task != null) {
				task.run();
			}
		}

	}

}
