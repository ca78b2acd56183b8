package io.idstarter.sequence;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

import io.idstarter.time.TimeSource;

/**
 * Builds IDs from the time to the millisecond and a {@link CyclicSequence} (seed 001): {@code yyyyMMddHHmmssSSS}
 * followed by the sequence value zero-padded to the number of digits of {@code max - 1}, for example
 * {@code 2026112106142239907} for 06:14:22.399 UTC on 21 November 2026 and value 7 of a sequence with
 * {@code max = 100}. IDs sort by time to the millisecond, and all IDs of one generator have the same length.
 *
 * <p><b>When IDs are unique.</b> Two IDs are equal only if they carry the same millisecond and the same sequence
 * value, and a value comes back only after {@code max} draws from the shared sequence. So IDs are unique as long as
 * fewer than {@code max} IDs are made, by all processes that share the sequence together, within any window of one
 * millisecond plus the largest difference between their clocks plus the longest pause between drawing a value and
 * reading the clock (garbage collection, scheduling). A clock set back repeats its milliseconds and widens the window
 * by the step back. With {@code max = 100} and well-synchronised clocks that means fewer than 100 IDs per millisecond
 * in the whole cluster; size {@code max} from the peak rate, each extra digit gives ten times the headroom.
 *
 * <p>The time is written in UTC unless another zone is given: in a zone with daylight saving time the local time
 * repeats an hour every autumn, and IDs made in that hour could repeat too.
 */
public final class TimePrefixedIdGenerator {

	/** Characters of the {@code yyyyMMddHHmmssSSS} prefix. */
	private static final int TIME_LENGTH = 17;

	private final CyclicSequence sequence;

	private final ZoneId zone;

	private final TimeSource timeSource;

	private final int sequenceDigits;

	/**
	 * Creates a generator that writes the system clock's time in UTC.
	 * @param sequence the shared cyclic sequence
	 */
	public TimePrefixedIdGenerator(CyclicSequence sequence) {
		this(sequence, ZoneOffset.UTC, TimeSource.system());
	}

	/**
	 * Creates a generator.
	 * @param sequence the shared cyclic sequence
	 * @param zone the zone the time is written in; prefer a fixed offset (see the class description)
	 * @param timeSource the clock
	 */
	public TimePrefixedIdGenerator(CyclicSequence sequence, ZoneId zone, TimeSource timeSource) {
		this.sequence = Objects.requireNonNull(sequence, "sequence");
		this.zone = Objects.requireNonNull(zone, "zone");
		this.timeSource = Objects.requireNonNull(timeSource, "timeSource");
		long max = sequence.max();
		if (max < 1) {
			throw new IllegalArgumentException("max of the cyclic sequence must be at least 1: " + max);
		}
		this.sequenceDigits = Long.toString(max - 1).length();
	}

	/**
	 * Returns the next ID: draws a sequence value, then reads the clock.
	 * @return {@code yyyyMMddHHmmssSSS} and the zero-padded sequence value
	 * @throws SequenceStoreException if the sequence's store cannot be reached
	 */
	public String nextId() {
		long value = this.sequence.next();
		return format(this.timeSource.currentTimeMillis(), value);
	}

	/**
	 * Returns the length of every ID of this generator.
	 * @return 17 plus the number of digits of {@code max - 1}
	 */
	public int length() {
		return TIME_LENGTH + this.sequenceDigits;
	}

	String format(long epochMillis, long value) {
		if (value < 0 || value >= this.sequence.max()) {
			throw new IllegalStateException(
					"cyclic sequence returned " + value + ", outside [0, " + this.sequence.max() + ")");
		}
		ZoneOffset offset = (this.zone instanceof ZoneOffset fixed) ? fixed
				: this.zone.getRules().getOffset(Instant.ofEpochMilli(epochMillis));
		LocalDateTime time = LocalDateTime.ofEpochSecond(Math.floorDiv(epochMillis, 1000L),
				(int) Math.floorMod(epochMillis, 1000L) * 1_000_000, offset);
		if (time.getYear() < 0 || time.getYear() > 9999) {
			throw new IllegalStateException("clock reads year " + time.getYear() + ", outside the 4 digits of the ID");
		}
		char[] id = new char[length()];
		digits(id, 0, 4, time.getYear());
		digits(id, 4, 2, time.getMonthValue());
		digits(id, 6, 2, time.getDayOfMonth());
		digits(id, 8, 2, time.getHour());
		digits(id, 10, 2, time.getMinute());
		digits(id, 12, 2, time.getSecond());
		digits(id, 14, 3, time.getNano() / 1_000_000);
		digits(id, TIME_LENGTH, this.sequenceDigits, value);
		return new String(id);
	}

	private static void digits(char[] target, int offset, int count, long value) {
		long rest = value;
		for (int i = offset + count - 1; i >= offset; i--) {
			target[i] = (char) ('0' + (rest % 10));
			rest /= 10;
		}
	}

}
