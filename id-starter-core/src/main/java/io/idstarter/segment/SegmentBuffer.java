package io.idstarter.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.idstarter.IdGenerationException;
import io.idstarter.IdWorkerListener;
import io.idstarter.StoreRegressionException;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The double buffer of one key: hands out the numbers of the range held in memory, without a lock, and fetches the
 * next range in the background before this one runs out. Every number handed out belongs to a range the store
 * allocated to this buffer and is handed out once. Numbers increase in the order they are handed out, across all
 * threads; with a thread chunk size, only within each thread. A caller only blocks when both ranges are used up, and
 * then waits at most {@code maxWait} for the fetch in flight.
 */
final class SegmentBuffer {

	/*
	 * Protocol. The design is Leaf's double buffer (Meituan, "Leaf: a distributed ID generation service", segment
	 * mode): a range in use, the next range fetched on a background thread once a share of the current one is used,
	 * and a switch when the current one is spent. Leaf guards every call with a read lock and the switch with the
	 * write lock, and publishes a segment's cursor and bound as separate fields (its issue #16 is the torn read that
	 * follows). Here there is no lock at all:
	 *
	 * - A Segment is immutable except for its cursor and the fetch of its successor. Its bounds are final fields, so
	 *   one volatile read of `current` gives a consistent [start, end) together with the cursor that belongs to it.
	 *
	 * - Issuing: read `current`, getAndAdd on its cursor. A value in [start, end) is an ID and is returned; every value
	 *   goes to exactly one caller, so no ID is handed out twice. A value at or past `end` means the segment is spent;
	 *   the cursor only grows, so once spent it stays spent. (A value below `start` would mean the cursor wrapped past
	 *   Long.MAX_VALUE; it is treated as spent too.)
	 *
	 * - Prefetch: the caller whose claim covers `prefetchAt` (the number at which `prefetchThreshold` of the segment is
	 *   used) asks for the successor. Exactly one claim covers it, but a waiter (below) may ask too, so the request is a
	 *   CAS of the segment's `state` from IDLE to FETCHING; the winner submits one Fetch to the executor. Because the
	 *   state belongs to the segment, not the buffer, a new segment starts IDLE and its own prefetch cannot collide
	 *   with the previous segment's. A Fetch that fails retries itself with a growing delay (scheduled, not sleeping
	 *   on a pool thread), so there is at most one store call in flight per key and an outage is not hammered. On
	 *   success it writes `next`, CASes FETCHING to READY and completes `successor`.
	 *
	 * - Switch: a caller that found `current` spent reads `current.next`; if it is there, it CASes `current` from the
	 *   spent segment to it. Losers of the race see `current` moved on and simply claim from the new one; a caller
	 *   that read an old segment cannot move `current` back, because its CAS expects a segment that is no longer
	 *   current. A switch only ever replaces a spent segment, so no number of the new segment is skipped and no number of the old one
	 *   is left out (all of them went to callers before any caller saw the segment spent).
	 *
	 * - Waiting: if the successor is not there, the caller asks for it (starting the fetch if the hot path's request
	 *   has not happened yet) and blocks on `successor` (a CompletableFuture: parked, no spinning, fine for virtual
	 *   threads) for at most maxWait, then switches as above. If others use up the new segment before it claims a
	 *   number, it waits for the next fetch, again at most maxWait: the bound is per fetch, so only a store that does
	 *   not deliver in time fails a caller. When a wait runs out it throws SegmentsExhaustedException; Leaf sleeps
	 *   10 ms once and gives up, which shows up as spurious errors under load.
	 *
	 * - Running a queued fetch: a waiting caller that finds the Fetch still queued (no pool thread has started it)
	 *   runs it itself, when the store allows calls on callers' threads (SegmentStore.supportsCallerThreadAllocation:
	 *   not if a call could join the caller's transaction), answered its latest call within INLINE_FETCH_MAX_NANOS
	 *   and has not failed since. Handing a task to a parked pool thread takes tens of microseconds, longer than a fast store's call and
	 *   longer than a small range lasts at full speed (1,000 IDs: about 3 µs), so without this every range of such a
	 *   key would wait for the hand-off. Each attempt of a Fetch is claimed by a CAS before it runs, so the pool
	 *   thread that dequeues it later does nothing, and a retry is not claimable while its delay runs. The cost: if
	 *   a store that was fast hangs at that very call, that one caller waits for the store's own timeout rather than
	 *   maxWait (it still gets an ID or an error, never a duplicate). The time it spent counts against its maxWait.
	 *
	 * - The first range of a key goes through the same path: the buffer starts with an empty sentinel segment that
	 *   is always spent, so the first caller requests its successor and waits for it.
	 *
	 * - Retirement (key removed from the store, generator closed): the current segment's fetch is marked FAILED and
	 *   `successor` completes exceptionally, so waiters fail at once. A Fetch that finishes later finds the state no
	 *   longer FETCHING and leaves `successor` alone; its range is a gap, or is used by a caller still holding the
	 *   buffer (unique numbers allocated to this key either way).
	 *
	 * - Thread chunks (opt-in, threadChunkSize > 0): a platform thread claims a chunk of numbers with one getAndAdd,
	 *   exactly as a batch does, and hands them out with plain reads and writes; the shared cursor is touched once per
	 *   chunk instead of once per ID. A chunk is cut at its segment's end, so it only ever holds numbers of an
	 *   allocated range that no one else claimed. A thread may keep using a chunk of an older segment after `current`
	 *   moved on: still unique, and still increasing per thread (a later claim is always higher), but no longer in
	 *   order across threads.
	 *   Chunks live in a striped array of slots indexed by thread ID (a ThreadLocal lookup costs more than the atomic
	 *   add it saves; measured ~12 ns against ~3 ns). A Chunk is created by its owner, which is a final field, and is
	 *   read and written only by that owner, so the fast path is a plain read of the slot, a check that the chunk's
	 *   owner is the current thread, and plain field updates. A slot is taken by CAS from null and given up only when
	 *   its owner has ended (swept at each key refresh, never on a caller's path). A thread whose two probe slots
	 *   belong to other live threads uses the shared cursor, which is correct, only slower. A thread never holds two
	 *   chunks of a buffer: it looks for its own chunk in both probe slots before it takes a free one. Virtual
	 *   threads never take a slot: a chunk each would mostly be wasted.
	 *
	 * - Store regression: before a range is served, it is checked against the key's high mark (SegmentMarks: the end
	 *   of the highest range this node was given, kept in a local file across restarts) and the mark is raised to its
	 *   end, durably, before the segment is published. A range below the mark means the store lost writes; it is
	 *   refused (StoreRegressionException, a gap), `regression` is set so that waiters fail at once instead of
	 *   waiting, and the Fetch retries only every regressionRetryNanos (the key refresh interval): each retry moves
	 *   the store up by one step, so the store does not climb back past the mark quickly on its own (that would serve
	 *   numbers other nodes may have served), while an operator who raised the key's max_id is picked up within an
	 *   interval. Waiters already parked are woken by completing the segment's `successor` exceptionally after a
	 *   fresh future was put in its place for the retry; numbers left in the current segment are still served, they
	 *   were allocated before the loss.
	 *
	 * Only the Fetch writes the statistics (step, times, last error); one Fetch runs per buffer at a time, because a
	 * segment's successor is requested only once it is current, which is after its own fetch completed.
	 */

	private static final Logger logger = LoggerFactory.getLogger(SegmentBuffer.class);

	/** No fetch of the successor has been requested yet. */
	static final int IDLE = 0;

	/** A fetch of the successor is running, or waiting to retry after a failed store call. */
	static final int FETCHING = 1;

	/** The successor has been fetched and is in {@code next}. */
	static final int READY = 2;

	/** The successor will never come: the key was removed or the generator closed. */
	static final int FAILED = 3;

	/** Retirement: the buffer is in use. */
	private static final int ACTIVE = 0;

	/** Retirement: the store no longer has the key. */
	private static final int KEY_REMOVED = 1;

	/** Retirement: the generator was closed. */
	private static final int CLOSED = 2;

	/** First delay before a failed fetch is retried; doubles with each failure in a row. */
	private static final long RETRY_DELAY_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	/** Longest delay between retries of a failed fetch (lowered to a quarter of maxWait when that is shorter). */
	private static final long RETRY_DELAY_MAX_NANOS = TimeUnit.SECONDS.toNanos(1);

	/**
	 * A waiting caller runs a queued fetch itself only if the store's latest call took at most this long (or half
	 * of maxWait, if that is shorter): a store this fast is in-process or next door, and a hand-off to a pool thread
	 * costs as much as its call.
	 */
	private static final long INLINE_FETCH_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/** Slots for thread chunks per key; a power of two, enough for a typical server's platform thread pool. */
	static final int CHUNK_SLOTS = 256;

	/** Slots a thread tries, from the one its ID maps to. */
	private static final int CHUNK_PROBES = 2;

	private static final VarHandle CURRENT;

	private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(Chunk[].class);

	static {
		try {
			CURRENT = MethodHandles.lookup().findVarHandle(SegmentBuffer.class, "current", Segment.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final String key;

	private final SegmentStore store;

	private final DynamicStep dynamicStep;

	private final double prefetchThreshold;

	private final long maxWaitNanos;

	/**
	 * A waiting caller runs a queued fetch itself if the store's latest call took at most this long; -1 if the store
	 * must only be called from the pool.
	 */
	private final long inlineFetchMaxNanos;

	private final TimeSource time;

	private final IdWorkerListener listener;

	private final Executor executor;

	private final ScheduledExecutorService scheduler;

	private final Consumer<SegmentBuffer> onKeyRemoved;

	/** This node's high marks, shared by the buffers of one generator. */
	private final SegmentMarks marks;

	/** Delay between retries of a fetch whose range was refused as below the key's high mark. */
	private final long regressionRetryNanos;

	/** Numbers a platform thread takes per claim; 0 when every ID comes from the shared cursor. */
	private final int chunkSize;

	/**
	 * Platform threads' chunks of this key, at {@code threadId & (CHUNK_SLOTS - 1)} or the slot after; null when
	 * chunks are off. A slot goes from null to a chunk by CAS, and back to null only when the chunk's owner has ended.
	 */
	private final Chunk @Nullable [] chunks;

	/** The segment IDs are taken from; never null; replaced only by a CAS from a spent segment to its successor. */
	private volatile Segment current;

	/** Why the buffer stopped; ACTIVE while in use, never back to ACTIVE once changed. */
	private volatile int retirement = ACTIVE;

	// Statistics and dynamic-step inputs: written only by the one Fetch running at a time, read by anyone.

	/** Size requested at the latest successful fetch; 0 before the first. */
	private volatile int step;

	/** The key's configured step as the store reported it at the latest fetch; 0 before the first. */
	private volatile int configuredStep;

	/** Monotonic time when the latest successful store call returned. */
	private volatile long lastFetchNanos;

	/** Wall-clock time when the latest successful store call returned; 0 before the first. */
	private volatile long lastFetchMillis;

	/** How long the latest successful store call took; -1 before the first. */
	private volatile long lastFetchDurationNanos = -1;

	/** Store calls that failed since the latest success. */
	private volatile int failuresInRow;

	/** The store's error since the latest successful fetch; null once a fetch succeeds. */
	private volatile @Nullable Throwable lastError;

	/** Set by the Fetch when the store answered below the key's high mark; null again once a range passes. */
	private volatile @Nullable StoreRegressionException regression;

	SegmentBuffer(String key, SegmentStore store, SegmentOptions options, TimeSource time, IdWorkerListener listener,
			Executor executor, ScheduledExecutorService scheduler, Consumer<SegmentBuffer> onKeyRemoved,
			SegmentMarks marks) {
		this.key = key;
		this.store = store;
		this.dynamicStep = options.dynamicStep();
		this.prefetchThreshold = options.prefetchThreshold();
		this.maxWaitNanos = DynamicStep.saturatedNanos(options.maxWait());
		this.inlineFetchMaxNanos = store.supportsCallerThreadAllocation()
				? Math.min(INLINE_FETCH_MAX_NANOS, this.maxWaitNanos / 2) : -1;
		this.time = time;
		this.listener = listener;
		this.executor = executor;
		this.scheduler = scheduler;
		this.onKeyRemoved = onKeyRemoved;
		this.marks = marks;
		this.regressionRetryNanos = Math.max(RETRY_DELAY_MAX_NANOS,
				DynamicStep.saturatedNanos(options.keyRefreshInterval()));
		this.chunkSize = options.threadChunkSize();
		this.chunks = (this.chunkSize != 0) ? new Chunk[CHUNK_SLOTS] : null;
		this.current = Segment.sentinel();
	}

	String key() {
		return this.key;
	}

	/**
	 * Returns the next ID of the key.
	 * @return the ID
	 * @throws IdGenerationException if both ranges are used up and the next did not arrive within maxWait, or the
	 * key was removed
	 */
	long nextId() {
		if (this.chunks != null) {
			return nextIdFromChunk(this.chunks);
		}
		return nextIdShared();
	}

	private long nextIdShared() {
		Segment segment = this.current;
		long id = segment.claim(1);
		if (id >= segment.start && id < segment.end) {
			if (id == segment.prefetchAt) {
				prefetch(segment);
			}
			return id;
		}
		return nextIdSlow(segment);
	}

	/**
	 * Returns {@code count} consecutive-where-possible IDs of the key, taking each run from a segment with one atomic
	 * add.
	 * @param count how many, at least 1
	 * @return the IDs in increasing order
	 */
	long[] nextIds(int count) {
		long[] ids = new long[count];
		int filled = 0;
		Chunk chunk = (this.chunks != null) ? ownChunk(this.chunks, Thread.currentThread()) : null;
		if (chunk != null) {
			// Use up the thread's chunk first: its numbers are below anything claimed from now on.
			while (filled < count && chunk.next < chunk.limit) {
				ids[filled++] = chunk.next++;
			}
			if (filled == count) {
				return ids;
			}
		}
		Segment segment = this.current;
		while (true) {
			int wanted = count - filled;
			long first = segment.claim(wanted);
			if (first >= segment.start && first < segment.end) {
				int taken = (int) Math.min(wanted, segment.end - first);
				if (first <= segment.prefetchAt && segment.prefetchAt - first < taken) {
					prefetch(segment);
				}
				// An int-counted loop: with a long counter and a post-incremented index this copy measured about
				// 2 ns per ID, so a batch cost more than single calls (SegmentBatchBenchmark).
				for (int i = 0; i < taken; i++) {
					ids[filled + i] = first + i;
				}
				filled += taken;
				if (filled == count) {
					return ids;
				}
			}
			segment = advance(segment);
		}
	}

	private long nextIdFromChunk(Chunk[] chunks) {
		Thread thread = Thread.currentThread();
		Chunk chunk = chunks[slot(thread)];
		if (chunk != null && chunk.owner == thread) {
			long id = chunk.next;
			if (id < chunk.limit) {
				chunk.next = id + 1;
				return id;
			}
			return refill(chunk);
		}
		return nextIdFromOtherSlot(chunks, thread);
	}

	/** Slow path of a thread whose home slot does not hold its chunk: the next slot, a free slot, or no chunk. */
	private long nextIdFromOtherSlot(Chunk[] chunks, Thread thread) {
		Chunk chunk = ownChunk(chunks, thread);
		if (chunk == null) {
			chunk = takeSlot(chunks, thread);
			if (chunk == null) {
				return nextIdShared();
			}
		}
		long id = chunk.next;
		if (id < chunk.limit) {
			chunk.next = id + 1;
			return id;
		}
		return refill(chunk);
	}

	private static int slot(Thread thread) {
		return (int) thread.getId() & (CHUNK_SLOTS - 1);
	}

	/** Returns the calling thread's chunk, if it has one. */
	private static @Nullable Chunk ownChunk(Chunk[] chunks, Thread thread) {
		int home = slot(thread);
		for (int probe = 0; probe < CHUNK_PROBES; probe++) {
			Chunk chunk = (Chunk) SLOTS.getAcquire(chunks, (home + probe) & (CHUNK_SLOTS - 1));
			if (chunk != null && chunk.owner == thread) {
				return chunk;
			}
		}
		return null;
	}

	/** Gives the calling platform thread a chunk in a free probe slot; null for virtual threads or no free slot. */
	private static @Nullable Chunk takeSlot(Chunk[] chunks, Thread thread) {
		if (VirtualThreads.isVirtual(thread)) {
			return null;
		}
		int home = slot(thread);
		for (int probe = 0; probe < CHUNK_PROBES; probe++) {
			int slot = (home + probe) & (CHUNK_SLOTS - 1);
			if (SLOTS.getAcquire(chunks, slot) == null) {
				Chunk chunk = new Chunk(thread);
				if (SLOTS.compareAndSet(chunks, slot, null, chunk)) {
					return chunk;
				}
			}
		}
		return null;
	}

	/**
	 * Frees the slots of threads that have ended, so that new threads can take them; their unused numbers are gaps.
	 * Called from the key refresh, never on a caller's path.
	 */
	void releaseChunksOfEndedThreads() {
		Chunk[] chunks = this.chunks;
		if (chunks == null) {
			return;
		}
		for (int slot = 0; slot < chunks.length; slot++) {
			Chunk chunk = (Chunk) SLOTS.getAcquire(chunks, slot);
			if (chunk != null && !chunk.owner.isAlive()) {
				SLOTS.compareAndSet(chunks, slot, chunk, null);
			}
		}
	}

	/** Returns how many slots hold a chunk. */
	int chunkSlotsInUse() {
		Chunk[] chunks = this.chunks;
		int used = 0;
		if (chunks != null) {
			for (int slot = 0; slot < chunks.length; slot++) {
				if (SLOTS.getAcquire(chunks, slot) != null) {
					used++;
				}
			}
		}
		return used;
	}

	/** Claims a new chunk for the calling thread and returns its first number. */
	private long refill(Chunk chunk) {
		Segment segment = this.current;
		while (true) {
			long first = segment.claim(this.chunkSize);
			if (first >= segment.start && first < segment.end) {
				long limit = (segment.end - first > this.chunkSize) ? first + this.chunkSize : segment.end;
				if (first <= segment.prefetchAt && segment.prefetchAt < limit) {
					prefetch(segment);
				}
				chunk.next = first + 1;
				chunk.limit = limit;
				return first;
			}
			segment = advance(segment);
		}
	}

	private long nextIdSlow(Segment spent) {
		Segment segment = spent;
		while (true) {
			segment = advance(segment);
			long id = segment.claim(1);
			if (id >= segment.start && id < segment.end) {
				if (id == segment.prefetchAt) {
					prefetch(segment);
				}
				return id;
			}
		}
	}

	/**
	 * Returns the segment to claim from after {@code spent} was found used up: a newer current segment, or the
	 * successor of {@code spent} after switching to it, waiting for it if needed.
	 */
	private Segment advance(Segment spent) {
		while (true) {
			Segment current = this.current;
			if (current != spent) {
				return current;
			}
			Segment successor = spent.next;
			if (successor != null) {
				// Losing this CAS means another caller switched first; either way `current` has moved on.
				CURRENT.compareAndSet(this, spent, successor);
				return this.current;
			}
			awaitSuccessor(spent);
		}
	}

	/**
	 * Waits for the successor of the current, spent segment, at most maxWait, running its fetch if no pool thread has
	 * started it and the store is fast. The bound is per fetch: a caller that gets the successor but finds it used up
	 * by others before it claims a number waits for the next fetch, again at most maxWait; each such round means the
	 * store delivered, so only a store that does not deliver in time fails a caller (and the dynamic step grows
	 * ranges that run out this fast).
	 */
	private void awaitSuccessor(Segment spent) {
		if (this.retirement != ACTIVE) {
			throw retiredException();
		}
		prefetch(spent);
		StoreRegressionException refused = this.regression;
		if (refused != null) {
			throw refusal(refused);
		}
		long waitStart = this.time.nanoTime();
		runQueuedFetch(spent);
		try {
			long left = this.maxWaitNanos - (this.time.nanoTime() - waitStart);
			spent.successor.get(Math.max(left, 0), TimeUnit.NANOSECONDS);
			this.listener.segmentWait(this.key, this.time.nanoTime() - waitStart, true);
		}
		catch (TimeoutException ex) {
			long now = this.time.nanoTime();
			this.listener.segmentWait(this.key, now - waitStart, false);
			refused = this.regression;
			if (refused != null) {
				throw refusal(refused);
			}
			throw exhausted(spent, now - waitStart, now);
		}
		catch (ExecutionException ex) {
			this.listener.segmentWait(this.key, this.time.nanoTime() - waitStart, false);
			if (ex.getCause() instanceof StoreRegressionException regressed) {
				throw refusal(regressed);
			}
			throw retiredException();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.listener.segmentWait(this.key, this.time.nanoTime() - waitStart, false);
			throw new IdGenerationException("Interrupted while waiting for the next range of key '" + this.key
					+ "'; nothing was issued", ex);
		}
	}

	/**
	 * Runs the fetch of the spent segment's successor on the calling thread, if it is queued and the store allows it
	 * and is fast.
	 */
	private void runQueuedFetch(Segment spent) {
		Fetch fetch = spent.fetch;
		long lastCallNanos = this.lastFetchDurationNanos;
		// Not before the key's first answer (-1): nothing is known of the store's speed yet.
		boolean storeIsFast = lastCallNanos >= 0 && lastCallNanos <= this.inlineFetchMaxNanos;
		if (fetch != null && storeIsFast && this.failuresInRow == 0 && fetch.claim()) {
			fetch.attempt();
		}
	}

	private void prefetch(Segment segment) {
		if (segment.state == IDLE) {
			segment.fetchRequestedNanos = this.time.nanoTime();
			if (segment.casState(IDLE, FETCHING)) {
				Fetch fetch = new Fetch(segment);
				segment.fetch = fetch;
				submit(fetch);
			}
		}
	}

	private void submit(Fetch fetch) {
		try {
			this.executor.execute(fetch);
		}
		catch (RejectedExecutionException ex) {
			fetch.failed(ex);
		}
	}

	/**
	 * Stops the buffer: pending and later fetches fail, and so do callers waiting for them.
	 * @param keyRemoved {@code true} if the store no longer has the key, {@code false} if the generator closed
	 */
	void retire(boolean keyRemoved) {
		if (this.retirement == ACTIVE) {
			// Racing retirements both stop the buffer; which reason wins only changes the waiters' exception.
			this.retirement = keyRemoved ? KEY_REMOVED : CLOSED;
		}
		Segment segment = this.current;
		if (segment.casState(IDLE, FAILED) || segment.casState(FETCHING, FAILED)) {
			segment.successor.completeExceptionally(retiredException());
		}
	}

	/** Returns the refusal for one caller: the same facts, this caller's stack. */
	private static StoreRegressionException refusal(StoreRegressionException regression) {
		return new StoreRegressionException(regression.subject(), regression.knownMark(), regression.storeMark(),
				regression.getMessage());
	}

	/**
	 * Returns why the store's latest answer was refused, while it stays below the key's high mark.
	 * @return the refusal, or null while the store's answers are accepted
	 */
	@Nullable StoreRegressionException regression() {
		return this.regression;
	}

	private RuntimeException retiredException() {
		if (this.retirement == KEY_REMOVED) {
			return new UnknownKeyException(this.key);
		}
		return new IllegalStateException(
				"The segment ID generator was closed; key '" + this.key + "' issues no more IDs");
	}

	private SegmentsExhaustedException exhausted(Segment spent, long waitedNanos, long now) {
		Throwable error = this.lastError;
		StringBuilder message = new StringBuilder(256);
		if (spent.isSentinel()) {
			message.append(String.format(Locale.ROOT,
					"The first range of key '%s' did not arrive within %d ms (maxWait)", this.key,
					TimeUnit.NANOSECONDS.toMillis(waitedNanos)));
		}
		else {
			message.append(String.format(Locale.ROOT,
					"Both ranges of key '%s' are used up (%s and %s) and the next did not arrive within %d ms (maxWait)",
					this.key, spent.previousRange(), spent.range(), TimeUnit.NANOSECONDS.toMillis(waitedNanos)));
		}
		int state = spent.state;
		message.append(String.format(Locale.ROOT, "; step %d (configured %d); the fetch has been pending for %d ms",
				this.step, this.configuredStep, TimeUnit.NANOSECONDS.toMillis(now - spent.fetchRequestedNanos)));
		message.append(" (").append(stateName(state)).append(", ").append(this.failuresInRow)
			.append(" failed store calls in a row)");
		message.append("; last store error: ").append((error != null) ? error : "none, the store is slow");
		message.append("; nothing was issued: check that the segment store is reachable, or raise maxWait");
		return new SegmentsExhaustedException(this.key, message.toString(), error);
	}

	static String stateName(int state) {
		return switch (state) {
			case IDLE -> "IDLE";
			case FETCHING -> "FETCHING";
			case READY -> "READY";
			case FAILED -> "FAILED";
			default -> throw new IllegalStateException("Invalid segment fetch state: " + state);
		};
	}

	/**
	 * Returns a snapshot. Its issued count is derived from state rather than counted per call: the sizes of the
	 * finished segments and the used part of the current one (with thread chunks, numbers reserved by a chunk count
	 * as handed out).
	 */
	SegmentBufferView view() {
		Segment segment = this.current;
		Segment next = segment.next;
		long millis = this.lastFetchMillis;
		long durationNanos = this.lastFetchDurationNanos;
		Throwable error = this.lastError;
		return new SegmentBufferView(this.key, segment.isSentinel() ? null : segment.view(),
				(next != null) ? next.view() : null, this.step, this.configuredStep,
				(millis != 0) ? Instant.ofEpochMilli(millis) : null,
				(durationNanos >= 0) ? Duration.ofNanos(durationNanos) : null, segment.issuedCount(),
				segment.state == FETCHING, (error != null) ? error.toString() : null);
	}

	@Override
	public String toString() {
		return "SegmentBuffer[" + view() + "]";
	}

	private long retryDelayNanos(int failures) {
		long max = Math.max(RETRY_DELAY_MIN_NANOS, Math.min(RETRY_DELAY_MAX_NANOS, this.maxWaitNanos / 4));
		int shift = Math.min(failures - 1, 30);
		return Math.min(RETRY_DELAY_MIN_NANOS << shift, max);
	}

	/**
	 * Fetches the successor of one segment, retrying with a growing delay until it succeeds or the buffer retires.
	 * Runs on the prefetch executor, or on a waiting caller that claimed a queued attempt first.
	 */
	private final class Fetch implements Runnable {

		private final Segment predecessor;

		/** Set when an attempt starts, by a CAS; cleared when a retry is queued after its delay. */
		private final AtomicBoolean claimed = new AtomicBoolean();

		Fetch(Segment predecessor) {
			this.predecessor = predecessor;
		}

		/** Returns whether the caller may run the queued attempt; true for exactly one caller per attempt. */
		boolean claim() {
			return !this.claimed.get() && this.claimed.compareAndSet(false, true);
		}

		@Override
		public void run() {
			if (claim()) {
				attempt();
			}
		}

		void attempt() {
			if (SegmentBuffer.this.retirement != ACTIVE) {
				giveUp();
				return;
			}
			Segment successor;
			try {
				successor = fetch();
			}
			catch (StoreRegressionException ex) {
				regressed(ex);
				return;
			}
			catch (UnknownKeyException ex) {
				SegmentBuffer.this.lastError = ex;
				logger.warn("Segment key '{}' is no longer in the store; it issues no more IDs", SegmentBuffer.this.key);
				SegmentBuffer.this.onKeyRemoved.accept(SegmentBuffer.this);
				giveUp();
				return;
			}
			catch (RuntimeException | Error ex) {
				failed(ex);
				if (ex instanceof VirtualMachineError) {
					throw ex;
				}
				return;
			}
			this.predecessor.next = successor;
			if (this.predecessor.casState(FETCHING, READY)) {
				this.predecessor.successor.complete(successor);
			}
		}

		private Segment fetch() {
			SegmentBuffer buffer = SegmentBuffer.this;
			int currentStep = buffer.step;
			boolean first = (currentStep == 0);
			long callStart = buffer.time.nanoTime();
			int requested = first ? 0
					: buffer.dynamicStep.nextStep(currentStep, buffer.configuredStep, callStart - buffer.lastFetchNanos);
			boolean success = false;
			SegmentAllocation allocation;
			try {
				allocation = first ? buffer.store.allocate(buffer.key) : buffer.store.allocate(buffer.key, requested);
				checkAllocation(allocation);
				success = true;
			}
			finally {
				buffer.listener.storeCall(buffer.key, "allocate", buffer.time.nanoTime() - callStart, success);
			}
			// Durable before any number of the range can be served: a restarted node must not go below it either.
			buffer.marks.raise(buffer.key, allocation.end());
			long callEnd = buffer.time.nanoTime();
			buffer.step = first ? allocation.configuredStep() : requested;
			buffer.configuredStep = allocation.configuredStep();
			buffer.lastFetchNanos = callEnd;
			buffer.lastFetchMillis = buffer.time.currentTimeMillis();
			buffer.lastFetchDurationNanos = callEnd - callStart;
			if (buffer.failuresInRow > 0) {
				logger.info("Segment store answered again for key '{}' after {} failed calls", buffer.key,
						buffer.failuresInRow);
			}
			buffer.failuresInRow = 0;
			buffer.lastError = null;
			if (buffer.regression != null) {
				logger.warn("Segment store is above this node's high mark of key '{}' again, at [{}, {}); serving",
						buffer.key, allocation.start(), allocation.end());
				buffer.regression = null;
			}
			return new Segment(allocation.start(), allocation.end(), buffer.prefetchThreshold, this.predecessor);
		}

		private void checkAllocation(SegmentAllocation allocation) {
			String key = SegmentBuffer.this.key;
			if (!allocation.key().equals(key)) {
				throw new SegmentStoreException("Segment store returned a range of key '" + allocation.key()
						+ "' when asked for key '" + key + "'; the store adapter is broken");
			}
			long known = Math.max(this.predecessor.end, SegmentBuffer.this.marks.highMark(key));
			if (allocation.start() < known) {
				throw new StoreRegressionException("segment key '" + key + "'", known, allocation.start(),
						String.format(Locale.ROOT,
								"Segment store returned [%d, %d) for key '%s', below the end %d of the highest range "
										+ "this node was given (%s): the store lost writes (restarted without "
										+ "persistence, failed over to a replica that missed them, restored from "
										+ "an old backup, or the key's row was deleted and created again); "
										+ "refusing numbers that may repeat. Raise the key's max_id in the store "
										+ "to at least the highest such mark of every node (this node: %d); "
										+ "this node retries every %d s",
								allocation.start(), allocation.end(), key, known, markSource(), known,
								TimeUnit.NANOSECONDS.toSeconds(SegmentBuffer.this.regressionRetryNanos)));
			}
		}

		private String markSource() {
			return SegmentBuffer.this.marks.file().map((file) -> "kept in " + file).orElse("kept in memory");
		}

		/** Refuses the store's answer: waiters fail now, and the next attempt waits a key refresh interval. */
		private void regressed(StoreRegressionException ex) {
			SegmentBuffer buffer = SegmentBuffer.this;
			boolean firstInRow = (buffer.regression == null);
			buffer.regression = ex;
			buffer.lastError = ex;
			buffer.failuresInRow++;
			buffer.listener.segmentRefused(buffer.key, ex.knownMark(), ex.storeMark());
			if (firstInRow) {
				logger.error(ex.getMessage());
			}
			else {
				logger.debug(ex.getMessage());
			}
			// A fresh future for the retry, then wake those parked on the old one.
			CompletableFuture<Segment> parked = this.predecessor.successor;
			this.predecessor.successor = new CompletableFuture<>();
			parked.completeExceptionally(ex);
			if (buffer.retirement != ACTIVE || this.predecessor.state != FETCHING) {
				giveUp();
				this.predecessor.successor.completeExceptionally(retiredException());
				return;
			}
			try {
				buffer.scheduler.schedule(this::retry, buffer.regressionRetryNanos, TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException rejected) {
				giveUp();
			}
		}

		void failed(Throwable ex) {
			SegmentBuffer buffer = SegmentBuffer.this;
			int failures = buffer.failuresInRow + 1;
			buffer.failuresInRow = failures;
			buffer.lastError = ex;
			if (failures == 1) {
				logger.warn("Segment store call for key '{}' failed; retrying until it answers", buffer.key, ex);
			}
			else {
				logger.debug("Segment store call for key '{}' failed ({} in a row)", buffer.key, failures, ex);
			}
			if (buffer.retirement != ACTIVE) {
				giveUp();
				return;
			}
			try {
				buffer.scheduler.schedule(this::retry, retryDelayNanos(failures), TimeUnit.NANOSECONDS);
			}
			catch (RejectedExecutionException rejected) {
				giveUp();
			}
		}

		private void retry() {
			this.claimed.set(false);
			submit(this);
		}

		private void giveUp() {
			if (this.predecessor.casState(FETCHING, FAILED)) {
				this.predecessor.successor.completeExceptionally(retiredException());
			}
		}

	}

	/**
	 * Numbers {@code [next, limit)} one thread took from a segment; read and written only by that thread.
	 */
	static final class Chunk {

		/** The only thread that uses this chunk. */
		final Thread owner;

		/** Next number to hand out; owner only. */
		long next;

		/** First number past the chunk, never past its segment's end; owner only. */
		long limit;

		Chunk(Thread owner) {
			this.owner = owner;
		}

	}

	/**
	 * One range {@code [start, end)} and its cursor; the bounds never change after construction.
	 */
	static final class Segment {

		private static final VarHandle CURSOR;

		private static final VarHandle STATE;

		static {
			try {
				MethodHandles.Lookup lookup = MethodHandles.lookup();
				CURSOR = lookup.findVarHandle(Segment.class, "cursor", long.class);
				STATE = lookup.findVarHandle(Segment.class, "state", int.class);
			}
			catch (ReflectiveOperationException ex) {
				throw new ExceptionInInitializerError(ex);
			}
		}

		/** First number of the range. */
		final long start;

		/** First number past the range. */
		final long end;

		/** The number whose claim starts the fetch of the successor; in [start, end). */
		final long prefetchAt;

		/** Numbers handed out by the segments before this one, in this buffer. */
		final long issuedBefore;

		/** Bounds of the segment before this one, for messages; -1 when there is none. */
		final long previousStart;

		/** First number past the segment before this one; -1 when there is none. */
		final long previousEnd;

		/**
		 * Completes with the successor, or exceptionally when the buffer retires before it arrives or the store's
		 * answer is refused; replaced, by the Fetch only, before it completes exceptionally for a refusal.
		 */
		volatile CompletableFuture<Segment> successor = new CompletableFuture<>();

		/** Next number to hand out; only grows (getAndAdd); values at or past {@code end} are not IDs. */
		volatile long cursor;

		/** Fetch of the successor: IDLE, then FETCHING by CAS, then READY or FAILED by CAS. */
		volatile int state;

		/** The successor; written once, before {@code state} becomes READY. */
		volatile @Nullable Segment next;

		/** The fetch of the successor once requested; a waiting caller may run it if no pool thread has started it. */
		volatile @Nullable Fetch fetch;

		/** Monotonic time when the fetch of the successor was requested. */
		volatile long fetchRequestedNanos;

		private Segment(long start, long end, long prefetchAt, long issuedBefore, long previousStart,
				long previousEnd) {
			this.start = start;
			this.end = end;
			this.prefetchAt = prefetchAt;
			this.issuedBefore = issuedBefore;
			this.previousStart = previousStart;
			this.previousEnd = previousEnd;
			this.cursor = start;
		}

		Segment(long start, long end, double prefetchThreshold, Segment predecessor) {
			// Every number of the predecessor is handed out before anyone switches to this segment.
			this(start, end, prefetchAt(start, end, prefetchThreshold), predecessor.issuedBefore + predecessor.size(),
					predecessor.isSentinel() ? -1 : predecessor.start, predecessor.isSentinel() ? -1 : predecessor.end);
		}

		/** Returns the empty segment a buffer starts with: always spent, so the first caller fetches. */
		static Segment sentinel() {
			return new Segment(0, 0, -1, 0, -1, -1);
		}

		/**
		 * The number whose claim means {@code threshold} of the range is used: the ⌈size × threshold⌉-th number.
		 */
		static long prefetchAt(long start, long end, double threshold) {
			long size = end - start;
			long used = (long) Math.ceil(size * threshold);
			return start + Math.max(1, Math.min(used, size)) - 1;
		}

		boolean isSentinel() {
			return this.end == 0;
		}

		long size() {
			return this.end - this.start;
		}

		/** Claims {@code count} numbers; returns the first, which is an ID only if it is in [start, end). */
		long claim(long count) {
			return (long) CURSOR.getAndAdd(this, count);
		}

		boolean casState(int expected, int state) {
			return STATE.compareAndSet(this, expected, state);
		}

		long used() {
			long cursor = this.cursor;
			if (cursor < this.start) {
				// The cursor wrapped past Long.MAX_VALUE: every number was claimed.
				return size();
			}
			return Math.min(cursor, this.end) - this.start;
		}

		long issuedCount() {
			return this.issuedBefore + used();
		}

		SegmentView view() {
			return new SegmentView(this.start, this.end, this.start + used());
		}

		String range() {
			return "[" + this.start + ", " + this.end + ")";
		}

		String previousRange() {
			return (this.previousEnd < 0) ? "no earlier range" : "[" + this.previousStart + ", " + this.previousEnd + ")";
		}

		@Override
		public String toString() {
			return range() + " next " + (this.start + used()) + ", fetch " + stateName(this.state);
		}

	}

}
