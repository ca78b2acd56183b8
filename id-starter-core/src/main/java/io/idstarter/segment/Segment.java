package io.idstarter.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

/**
 * One range {@code [start, end)} of a key, its cursor, and the fetch of its successor; the bounds never change after
 * construction. The cursor and the fetch state are this class's protocol: the cursor only grows (getAndAdd), so a
 * number goes to exactly one claim and a spent segment stays spent (closing it is a CAS to {@code end}, after which
 * every claim finds it spent); the state only moves IDLE, then FETCHING by one CAS,
 * then READY or FAILED by CAS, so exactly one fetch of the successor is ever started.
 */
final class Segment {

	/** No fetch of the successor has been requested yet. */
	static final int IDLE = 0;

	/** A fetch of the successor is running, or waiting to retry after a failed store call. */
	static final int FETCHING = 1;

	/** The successor has been fetched and is in {@code next}. */
	static final int READY = 2;

	/** The successor will never come: the key was removed or the generator closed. */
	static final int FAILED = 3;

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

	/*
	 * The cursor has a cache line to itself. Threads claiming from one segment move the cursor's line between their
	 * cores on every claim; a bound read after a claim must not have travelled with it (in one line with the cursor,
	 * the bounds made two threads 0.8x a shared AtomicLong). HotSpot lays out fields of one size in the order they are
	 * declared: seven longs on each side keep every other field 64 bytes away (SegmentLayoutTests checks it).
	 */

	long padBefore1, padBefore2, padBefore3, padBefore4, padBefore5, padBefore6, padBefore7;

	/** Next number to hand out; only grows (getAndAdd); values at or past {@code end} are not IDs. */
	volatile long cursor;

	long padAfter1, padAfter2, padAfter3, padAfter4, padAfter5, padAfter6, padAfter7;

	/** Fetch of the successor: IDLE, then FETCHING by CAS, then READY or FAILED by CAS. */
	volatile int state;

	/** The successor; written once, before {@code state} becomes READY. */
	volatile @Nullable Segment next;

	/** The fetch of the successor once requested; a waiting caller may run it if no pool thread has started it. */
	volatile SegmentFetcher.@Nullable Fetch fetch;

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

	/**
	 * Closes the cursor: moves it to {@code end} by CAS, so every claim from now on finds the segment spent, and
	 * returns the first number no claim got. A claim that ran before the CAS got its number below the returned one.
	 * @return the first number not handed out, {@code end} if none is left
	 */
	long closeCursor() {
		long cursor = this.cursor;
		while (cursor >= this.start && cursor < this.end) {
			if (CURSOR.compareAndSet(this, cursor, this.end)) {
				return cursor;
			}
			cursor = this.cursor;
		}
		return this.end;
	}

	/** Returns whether a claim has covered {@code number}: the cursor, the next number to claim, is past it. */
	boolean claimedPast(long number) {
		return this.cursor > number;
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

	static String stateName(int state) {
		return switch (state) {
			case IDLE -> "IDLE";
			case FETCHING -> "FETCHING";
			case READY -> "READY";
			case FAILED -> "FAILED";
			default -> throw new IllegalStateException("Invalid segment fetch state: " + state);
		};
	}

	@Override
	public String toString() {
		return range() + " next " + (this.start + used()) + ", fetch " + stateName(this.state);
	}

}
