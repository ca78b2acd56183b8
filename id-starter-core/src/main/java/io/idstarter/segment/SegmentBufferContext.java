package io.idstarter.segment;

import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

import io.idstarter.IdWorkerListener;
import io.idstarter.time.TimeSource;

/**
 * What the buffers and fetchers of one generator share: the store, the settings, the clock, the listener, the threads
 * that fetch and retry, and this node's high marks.
 * @param store the store the ranges come from
 * @param options the settings
 * @param time the clock
 * @param listener receives store calls, waits and refusals
 * @param executor runs the store calls
 * @param dispatcher passes requested fetches to the executor off the requesting caller's thread
 * @param scheduler runs the retries of failed fetches
 * @param marks this node's high marks: a range below its key's mark is refused
 */
record SegmentBufferContext(SegmentStore store, SegmentOptions options, TimeSource time, IdWorkerListener listener,
		Executor executor, PrefetchDispatcher dispatcher, ScheduledExecutorService scheduler, SegmentMarks marks) {

	SegmentBufferContext {
		Objects.requireNonNull(store, "store");
		Objects.requireNonNull(options, "options");
		Objects.requireNonNull(time, "time");
		Objects.requireNonNull(listener, "listener");
		Objects.requireNonNull(executor, "executor");
		Objects.requireNonNull(dispatcher, "dispatcher");
		Objects.requireNonNull(scheduler, "scheduler");
		Objects.requireNonNull(marks, "marks");
	}

}
