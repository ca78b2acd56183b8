package io.idstarter.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
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
final class SegmentBuffer implements PrefetchDispatcher.Watched {

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
	 *   used) asks the SegmentFetcher for the successor. Exactly one claim covers it, but a waiter (below) may ask too;
	 *   the fetcher starts one fetch per segment (a CAS of the segment's state), retries it until it succeeds, and
	 *   checks it against this node's high mark. Because the state belongs to the segment, not the buffer, a new
	 *   segment starts IDLE and its own prefetch cannot collide with the previous segment's.
	 *
	 * - Watched: while the dispatcher's poll watches the buffer (`watched`, see PrefetchDispatcher.Watched), that
	 *   caller leaves the request to the poll, which finds the claimed prefetch point within a poll's delay; the
	 *   caller then pays nothing at the prefetch point, where a request costs it tens of microseconds whenever that
	 *   rarely run code is not compiled. The caller reads `watched` after its claim; the poll clears `watched` before
	 *   it looks at the cursor one last time: of a caller that skips the request and a poll that stops watching, one
	 *   always sees the other (both are volatile accesses), so a claimed prefetch point is never left unrequested.
	 *
	 * - Switch: a caller that found `current` spent reads `current.next`; if it is there, it CASes `current` from the
	 *   spent segment to it. Losers of the race see `current` moved on and simply claim from the new one; a caller
	 *   that read an old segment cannot move `current` back, because its CAS expects a segment that is no longer
	 *   current. A switch only ever replaces a spent segment, so no number of the new segment is skipped and no number of
	 *   the old one is left out (all of them went to callers before any caller saw the segment spent).
	 *
	 * - Waiting: if the successor is not there, the caller asks for it (starting the fetch if the hot path's request
	 *   has not happened yet) and blocks on `successor` (a CompletableFuture: parked, no spinning, fine for virtual
	 *   threads) for at most maxWait, then switches as above. If others use up the new segment before it claims a
	 *   number, it waits for the next fetch, again at most maxWait: the bound is per fetch, so only a store that does
	 *   not deliver in time fails a caller. When a wait runs out it throws SegmentsExhaustedException; Leaf sleeps
	 *   10 ms once and gives up, which shows up as spurious errors under load.
	 *
	 * - Running a queued fetch: a waiting caller may run the fetch itself if no pool thread has started it (see
	 *   SegmentFetcher); the time it spends counts against its maxWait.
	 *
	 * - The first range of a key goes through the same path: the buffer starts with an empty sentinel segment that
	 *   is always spent, so the first caller requests its successor and waits for it.
	 *
	 * - Retirement (key removed from the store, generator closed): the current segment's fetch is marked FAILED and
	 *   `successor` completes exceptionally, so waiters fail at once. A Fetch that finishes later finds the state no
	 *   longer FETCHING and leaves `successor` alone; its range is a gap, or is used by a caller still holding the
	 *   buffer (unique numbers allocated to this key either way).
	 *
	 * - Give-back (at a graceful close, after retirement): the cursors of the current segment and of its prefetched
	 *   successor are closed, each by a CAS to its end (Segment.closeCursor). A caller whose claim ran before the CAS
	 *   got a number below the closed cursor; one whose claim runs after finds the segment spent, and, the buffer
	 *   being retired, fails in awaitSuccessor instead of waiting. Only then are the tails [closed cursor, end) given
	 *   back, the latest range first, so no number of a given-back tail is ever handed out by this buffer. A successor
	 *   that a fetch still in flight publishes later is not given back; its numbers may be served to a caller still
	 *   in flight, and stay a gap otherwise. A fetch in flight that allocates after a give-back gets a range below
	 *   its segment's end and is refused as a store regression.
	 *
	 * - Store regression: while the fetcher refuses the store's answers (below this node's high mark), waiters fail at
	 *   once with StoreRegressionException instead of waiting; numbers left in the current segment are still served,
	 *   they were allocated before the loss.
	 *
	 * - Used up: once the store has no numbers left of the key, the fetch fails for good and waiters fail at once with
	 *   SegmentKeyExhaustedException.
	 *
	 * - Thread chunks (opt-in): see ThreadChunks. A chunk is claimed from the current segment with one getAndAdd and
	 *   cut at the segment's end.
	 */

	private static final Logger logger = LoggerFactory.getLogger(SegmentBuffer.class);

	/** Retirement: the buffer is in use. */
	private static final int ACTIVE = 0;

	/** Retirement: the store no longer has the key. */
	private static final int KEY_REMOVED = 1;

	/** Retirement: the generator was closed. */
	private static final int CLOSED = 2;

	private static final VarHandle CURRENT;

	static {
		try {
			CURRENT = MethodHandles.lookup().findVarHandle(SegmentBuffer.class, "current", Segment.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final String key;

	/** What every buffer of the generator shares; one reference, not copies: a generator may hold many keys. */
	private final SegmentBufferContext context;

	private final Consumer<SegmentBuffer> onKeyRemoved;

	/** Fetches the ranges of this key and keeps the fetch statistics. */
	private final SegmentFetcher fetcher;

	/** Platform threads' chunks of this key; null when chunks are off. */
	private final @Nullable ThreadChunks chunks;

	/** The segment IDs are taken from; never null; replaced only by a CAS from a spent segment to its successor. */
	private volatile Segment current;

	/** Why the buffer stopped; ACTIVE while in use, never back to ACTIVE once changed. */
	private volatile int retirement = ACTIVE;

	/** Whether the dispatcher's poll requests the successor once a caller claims the prefetch point. */
	private volatile boolean watched;

	SegmentBuffer(String key, SegmentBufferContext context, Consumer<SegmentBuffer> onKeyRemoved) {
		this.key = key;
		this.context = context;
		this.onKeyRemoved = onKeyRemoved;
		this.fetcher = new SegmentFetcher(this, context);
		int chunkSize = context.options().threadChunkSize();
		this.chunks = (chunkSize != 0) ? new ThreadChunks(chunkSize) : null;
		this.current = Segment.sentinel();
	}

	String key() {
		return this.key;
	}

	@Override
	public boolean isActive() {
		return this.retirement == ACTIVE;
	}

	/** Called by the caller whose claim covered the segment's prefetch point. */
	private void prefetchPointClaimed(Segment segment) {
		if (!this.watched) {
			this.fetcher.request(segment);
		}
	}

	@Override
	public void watched(boolean watched) {
		this.watched = watched;
	}

	boolean isWatched() {
		return this.watched;
	}

	@Override
	public boolean requestIfClaimed() {
		Segment segment = this.current;
		if (segment.state == Segment.IDLE && segment.claimedPast(segment.prefetchAt)) {
			this.fetcher.request(segment);
			return true;
		}
		return false;
	}

	/** Called by the fetcher when the store answered that the key does not exist. */
	void keyRemoved() {
		this.onKeyRemoved.accept(this);
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
				prefetchPointClaimed(segment);
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
		ThreadChunks.Chunk chunk = (this.chunks != null) ? this.chunks.own(Thread.currentThread()) : null;
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
					prefetchPointClaimed(segment);
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

	private long nextIdFromChunk(ThreadChunks chunks) {
		Thread thread = Thread.currentThread();
		ThreadChunks.Chunk chunk = chunks.home(thread);
		if (chunk != null) {
			long id = chunk.next;
			if (id < chunk.limit) {
				chunk.next = id + 1;
				return id;
			}
			return refill(chunk, chunks.chunkSize);
		}
		return nextIdFromOtherSlot(chunks, thread);
	}

	/** Slow path of a thread whose home slot does not hold its chunk: the next slot, a free slot, or no chunk. */
	private long nextIdFromOtherSlot(ThreadChunks chunks, Thread thread) {
		ThreadChunks.Chunk chunk = chunks.own(thread);
		if (chunk == null) {
			chunk = chunks.take(thread);
			if (chunk == null) {
				return nextIdShared();
			}
		}
		long id = chunk.next;
		if (id < chunk.limit) {
			chunk.next = id + 1;
			return id;
		}
		return refill(chunk, chunks.chunkSize);
	}

	/**
	 * Frees the chunk slots of threads that have ended, so that new threads can take them; their unused numbers are
	 * gaps. Called from the key refresh, never on a caller's path.
	 */
	void releaseChunksOfEndedThreads() {
		if (this.chunks != null) {
			this.chunks.releaseEnded();
		}
	}

	/** Returns how many chunk slots hold a chunk. */
	int chunkSlotsInUse() {
		return (this.chunks != null) ? this.chunks.inUse() : 0;
	}

	/** Claims a new chunk for the calling thread and returns its first number. */
	private long refill(ThreadChunks.Chunk chunk, int chunkSize) {
		Segment segment = this.current;
		while (true) {
			long first = segment.claim(chunkSize);
			if (first >= segment.start && first < segment.end) {
				long limit = (segment.end - first > chunkSize) ? first + chunkSize : segment.end;
				if (first <= segment.prefetchAt && segment.prefetchAt < limit) {
					prefetchPointClaimed(segment);
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
					prefetchPointClaimed(segment);
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
		this.fetcher.request(spent);
		SegmentKeyExhaustedException usedUp = this.fetcher.usedUp();
		if (usedUp != null) {
			throw usedUp(usedUp);
		}
		StoreRegressionException refused = this.fetcher.regression();
		if (refused != null) {
			throw refusal(refused);
		}
		TimeSource time = this.context.time();
		IdWorkerListener listener = this.context.listener();
		long waitStart = time.nanoTime();
		this.fetcher.runQueued(spent);
		try {
			long left = DynamicStep.saturatedNanos(this.context.options().maxWait()) - (time.nanoTime() - waitStart);
			spent.successor.get(Math.max(left, 0), TimeUnit.NANOSECONDS);
			listener.segmentWait(this.key, time.nanoTime() - waitStart, true);
		}
		catch (TimeoutException ex) {
			long now = time.nanoTime();
			listener.segmentWait(this.key, now - waitStart, false);
			refused = this.fetcher.regression();
			if (refused != null) {
				throw refusal(refused);
			}
			throw exhausted(spent, now - waitStart, now);
		}
		catch (ExecutionException ex) {
			listener.segmentWait(this.key, time.nanoTime() - waitStart, false);
			if (ex.getCause() instanceof StoreRegressionException regressed) {
				throw refusal(regressed);
			}
			if (ex.getCause() instanceof SegmentKeyExhaustedException exhausted) {
				throw usedUp(exhausted);
			}
			throw retiredException();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			listener.segmentWait(this.key, time.nanoTime() - waitStart, false);
			throw new IdGenerationException("Interrupted while waiting for the next range of key '" + this.key
					+ "'; nothing was issued", ex);
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
		if (segment.casState(Segment.IDLE, Segment.FAILED) || segment.casState(Segment.FETCHING, Segment.FAILED)) {
			segment.successor.completeExceptionally(retiredException());
		}
	}

	/**
	 * Closes the current segment and its prefetched successor to callers and gives their unused tails back to the
	 * store, the latest first, each only where nobody allocated after it; this node's mark follows each tail given
	 * back. Call it after {@link #retire}. A store or marks file that fails leaves the rest as a gap.
	 * @return the tails the store took back, latest first
	 * @throws RuntimeException what the store or the marks file threw, after logging the tail that stays a gap, so
	 * that a close does not ask a failing store for every other key
	 */
	List<Tail> giveBack() {
		if (this.retirement == ACTIVE) {
			throw new IllegalStateException("Key '" + this.key + "' is still issuing IDs; retire its buffer first");
		}
		Segment segment = this.current;
		Segment successor = segment.next;
		// Both cursors are closed before anything is given back: from here on no caller gets a number of a tail.
		long cursor = segment.isSentinel() ? segment.end : segment.closeCursor();
		long successorCursor = (successor != null) ? successor.closeCursor() : -1;
		List<Tail> given = new ArrayList<>(2);
		if (successor != null) {
			if (!giveBack(successorCursor, successor.end, given) || successorCursor != successor.start) {
				// The current range is latest only if its successor came right after it and went back whole.
				return given;
			}
		}
		if (!segment.isSentinel()) {
			giveBack(cursor, segment.end, given);
		}
		return given;
	}

	/** Gives back one tail, lowering the mark first; returns whether the store took it back. */
	private boolean giveBack(long cursor, long end, List<Tail> given) {
		if (cursor >= end) {
			return false;
		}
		try {
			boolean lowered = this.context.marks().lower(this.key, end, cursor);
			boolean taken = this.context.store().giveBack(this.key, cursor, end);
			if (!taken && lowered) {
				this.context.marks().raise(this.key, end);
			}
			if (taken) {
				given.add(new Tail(cursor, end));
			}
			return taken;
		}
		catch (RuntimeException ex) {
			// Never retried (a second run could take back a range allocated meanwhile). The store may have given back
			// before its answer was lost, so the mark stays lowered: a weaker guard for the tail only, never a mark
			// above a store that gave back.
			logger.warn("Could not give back [{}, {}) of key '{}'; the numbers stay a gap: {}", cursor, end, this.key,
					ex.toString());
			throw ex;
		}
	}

	/**
	 * A tail of a range given back to the store: numbers this node never handed out.
	 * @param cursor the first number given back
	 * @param end the end of the range
	 */
	record Tail(long cursor, long end) {

		long size() {
			return this.end - this.cursor;
		}

	}

	/** Returns the refusal for one caller: the same facts, this caller's stack. */
	private static StoreRegressionException refusal(StoreRegressionException regression) {
		return new StoreRegressionException(regression.subject(), regression.knownMark(), regression.storeMark(),
				regression.getMessage());
	}

	/** Returns the store's refusal for one caller: the same facts, this caller's stack. */
	private static SegmentKeyExhaustedException usedUp(SegmentKeyExhaustedException exhausted) {
		return new SegmentKeyExhaustedException(exhausted.getKey(), exhausted.getMessage(), exhausted.remaining());
	}

	/**
	 * Returns why the store's latest answer was refused, while it stays below the key's high mark.
	 * @return the refusal, or null while the store's answers are accepted
	 */
	@Nullable StoreRegressionException regression() {
		return this.fetcher.regression();
	}

	RuntimeException retiredException() {
		if (this.retirement == KEY_REMOVED) {
			return new UnknownKeyException(this.key);
		}
		return new IllegalStateException(
				"The segment ID generator was closed; key '" + this.key + "' issues no more IDs");
	}

	private SegmentsExhaustedException exhausted(Segment spent, long waitedNanos, long now) {
		Throwable error = this.fetcher.lastError();
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
				this.fetcher.step(), this.fetcher.configuredStep(),
				TimeUnit.NANOSECONDS.toMillis(now - spent.fetchRequestedNanos)));
		message.append(" (").append(Segment.stateName(state)).append(", ").append(this.fetcher.failuresInRow())
			.append(" failed store calls in a row)");
		message.append("; last store error: ").append((error != null) ? error : "none, the store is slow");
		message.append("; nothing was issued: check that the segment store is reachable, or raise maxWait");
		return new SegmentsExhaustedException(this.key, message.toString(), error);
	}

	/**
	 * Returns a snapshot. Its issued count is derived from state rather than counted per call: the sizes of the
	 * finished segments and the used part of the current one (with thread chunks, numbers reserved by a chunk count
	 * as handed out).
	 */
	SegmentBufferView view() {
		Segment segment = this.current;
		Segment next = segment.next;
		long millis = this.fetcher.lastFetchMillis();
		long durationNanos = this.fetcher.lastFetchDurationNanos();
		Throwable error = this.fetcher.lastError();
		return new SegmentBufferView(this.key, segment.isSentinel() ? null : segment.view(),
				(next != null) ? next.view() : null, this.fetcher.step(), this.fetcher.configuredStep(),
				(millis != 0) ? Instant.ofEpochMilli(millis) : null,
				(durationNanos >= 0) ? Duration.ofNanos(durationNanos) : null, segment.issuedCount(),
				segment.state == Segment.FETCHING, (error != null) ? error.toString() : null,
				(error != null) ? SegmentBufferView.errorCode(error) : null,
				(error != null) ? Instant.ofEpochMilli(this.fetcher.lastErrorMillis()) : null);
	}

	@Override
	public String toString() {
		return "SegmentBuffer[" + view() + "]";
	}

}
