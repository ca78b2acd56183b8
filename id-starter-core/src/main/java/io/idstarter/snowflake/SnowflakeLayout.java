package io.idstarter.snowflake;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Objects;

import io.idstarter.InvalidSettingException;
import org.jspecify.annotations.Nullable;

/**
 * How a Snowflake ID is divided: {@code 0 | timestamp | worker ID | sequence}, from the sign bit down, with the
 * timestamp in milliseconds since an epoch. Immutable; validated so that every ID is a positive {@code long}.
 *
 * <p>Every field has at least one bit. A worker field of one bit still gives two slots, which a rolling restart needs
 * (the new instance leases the free slot while the old one still holds its own); and with the worker field never
 * empty, timestamp and sequence together take at most 62 bits, so the generator's packed state never overflows.
 */
public final class SnowflakeLayout {

	/** Epoch of the default layout: 2020-01-01T00:00:00Z. */
	public static final Instant DEFAULT_EPOCH = Instant.parse("2020-01-01T00:00:00Z");

	/** Timestamp bits of the default layout: about 69.7 years of milliseconds. */
	public static final int DEFAULT_TIMESTAMP_BITS = 41;

	/** Worker-ID bits of the default layout: 1024 workers. */
	public static final int DEFAULT_WORKER_ID_BITS = 10;

	/** Sequence bits of the default layout: 4096 IDs per millisecond and worker. */
	public static final int DEFAULT_SEQUENCE_BITS = 12;

	/** Bits every layout divides: all of a {@code long} but the sign. */
	public static final int TOTAL_BITS = 63;

	/**
	 * Most bits of a JavaScript-safe layout: its IDs stay below {@code 2^53}, the largest integer a JavaScript number
	 * (an IEEE 754 double) holds exactly.
	 */
	public static final int JAVASCRIPT_SAFE_BITS = 53;

	/** Most worker-ID bits: worker IDs are {@code int}s. */
	public static final int MAX_WORKER_ID_BITS = 31;

	/**
	 * Worker-ID bits of the default JavaScript-safe layout: 64 workers. With {@link #DEFAULT_TIMESTAMP_BITS} and
	 * {@link #JAVASCRIPT_SAFE_DEFAULT_SEQUENCE_BITS} it uses 53 bits, and lasts as long as the default layout.
	 */
	public static final int JAVASCRIPT_SAFE_DEFAULT_WORKER_ID_BITS = 6;

	/** Sequence bits of the default JavaScript-safe layout: 64 IDs per millisecond and worker. */
	public static final int JAVASCRIPT_SAFE_DEFAULT_SEQUENCE_BITS = 6;

	private static final SnowflakeLayout DEFAULTS = new SnowflakeLayout(DEFAULT_EPOCH.toEpochMilli(),
			DEFAULT_TIMESTAMP_BITS, DEFAULT_WORKER_ID_BITS, DEFAULT_SEQUENCE_BITS);

	private final long epochMillis;

	private final int timestampBits;

	private final int workerIdBits;

	private final int sequenceBits;

	// Derived once: shifts and the greatest value of each field.

	private final int timestampShift;

	private final long maxTimestampOffset;

	private final int maxWorkerId;

	private final long maxSequence;

	private SnowflakeLayout(long epochMillis, int timestampBits, int workerIdBits, int sequenceBits) {
		this.epochMillis = epochMillis;
		this.timestampBits = timestampBits;
		this.workerIdBits = workerIdBits;
		this.sequenceBits = sequenceBits;
		this.timestampShift = workerIdBits + sequenceBits;
		this.maxTimestampOffset = (1L << timestampBits) - 1;
		this.maxWorkerId = (int) ((1L << workerIdBits) - 1);
		this.maxSequence = (1L << sequenceBits) - 1;
	}

	/**
	 * Returns the classic layout: 41 timestamp bits from {@link #DEFAULT_EPOCH}, 10 worker-ID bits, 12 sequence bits
	 * (1024 workers, 4096 IDs per millisecond each, until 2089-09-06).
	 * @return the default layout
	 */
	public static SnowflakeLayout defaults() {
		return DEFAULTS;
	}

	/**
	 * Returns a layout. The epoch is truncated to the millisecond.
	 * @param epoch when timestamp 0 is; not in the future and not before 1970-01-01T00:00:00Z
	 * @param timestampBits bits of milliseconds since the epoch, at least 1
	 * @param workerIdBits bits of worker ID, 1 to {@value #MAX_WORKER_ID_BITS}
	 * @param sequenceBits bits of sequence within a millisecond, at least 1
	 * @return the layout
	 * @throws IllegalArgumentException if a field is out of range, the bits do not sum to {@value #TOTAL_BITS}, or
	 * the epoch is out of range
	 */
	public static SnowflakeLayout of(Instant epoch, int timestampBits, int workerIdBits, int sequenceBits) {
		return create(epoch, timestampBits, workerIdBits, sequenceBits, false);
	}

	/**
	 * Returns a layout whose IDs JavaScript numbers hold exactly: the bits sum to at most
	 * {@value #JAVASCRIPT_SAFE_BITS}, so every ID is below {@code 2^53} (as CosId's {@code SafeJavaScriptSnowflakeId}).
	 * The price is capacity: with 41 timestamp bits, 12 bits are left for worker ID and sequence together.
	 * @param epoch when timestamp 0 is; not in the future and not before 1970-01-01T00:00:00Z
	 * @param timestampBits bits of milliseconds since the epoch, at least 1
	 * @param workerIdBits bits of worker ID, at least 1
	 * @param sequenceBits bits of sequence within a millisecond, at least 1
	 * @return the layout
	 * @throws IllegalArgumentException if a field is out of range, the bits sum to more than
	 * {@value #JAVASCRIPT_SAFE_BITS}, or the epoch is out of range
	 */
	public static SnowflakeLayout javaScriptSafe(Instant epoch, int timestampBits, int workerIdBits, int sequenceBits) {
		return create(epoch, timestampBits, workerIdBits, sequenceBits, true);
	}

	/**
	 * Returns the default JavaScript-safe layout: {@value #DEFAULT_TIMESTAMP_BITS} timestamp bits,
	 * {@value #JAVASCRIPT_SAFE_DEFAULT_WORKER_ID_BITS} worker-ID bits and {@value #JAVASCRIPT_SAFE_DEFAULT_SEQUENCE_BITS}
	 * sequence bits (64 workers, 64 IDs per millisecond each), for an application that asked for IDs below
	 * {@code 2^53} without choosing the widths.
	 * @param epoch when timestamp 0 is; not in the future and not before 1970-01-01T00:00:00Z
	 * @return the layout
	 * @throws IllegalArgumentException if the epoch is out of range
	 */
	public static SnowflakeLayout javaScriptSafe(Instant epoch) {
		return javaScriptSafe(epoch, DEFAULT_TIMESTAMP_BITS, JAVASCRIPT_SAFE_DEFAULT_WORKER_ID_BITS,
				JAVASCRIPT_SAFE_DEFAULT_SEQUENCE_BITS);
	}

	private static SnowflakeLayout create(Instant epoch, int timestampBits, int workerIdBits, int sequenceBits,
			boolean javaScriptSafe) {
		Objects.requireNonNull(epoch, "epoch");
		requireSetting("timestampBits", timestampBits >= 1, "timestampBits must be at least 1: %s", timestampBits);
		requireSetting("workerIdBits", workerIdBits >= 1 && workerIdBits <= MAX_WORKER_ID_BITS,
				"workerIdBits must be in [1, %s]: %s", MAX_WORKER_ID_BITS, workerIdBits);
		requireSetting("sequenceBits", sequenceBits >= 1, "sequenceBits must be at least 1: %s", sequenceBits);
		long sum = (long) timestampBits + workerIdBits + sequenceBits;
		int[] widths = { timestampBits, workerIdBits, sequenceBits };
		// The fixes are worked out only for the message: they need date arithmetic no valid layout should pay for.
		if (javaScriptSafe && sum > JAVASCRIPT_SAFE_BITS) {
			throw new InvalidSettingException(changedWidth(widths), String.format(Locale.ROOT, "timestampBits + "
					+ "workerIdBits + sequenceBits must be at most %s so that every ID stays below 2^53, but %s + %s + "
					+ "%s = %s: %s", JAVASCRIPT_SAFE_BITS, timestampBits, workerIdBits, sequenceBits, sum,
					fixes(epoch, widths, (int) (JAVASCRIPT_SAFE_BITS - sum))));
		}
		if (!javaScriptSafe && sum != TOTAL_BITS) {
			throw new InvalidSettingException(changedWidth(widths), String.format(Locale.ROOT, "timestampBits + "
					+ "workerIdBits + sequenceBits must be %s so that every ID is a positive long, but %s + %s + %s = "
					+ "%s: %s", TOTAL_BITS, timestampBits, workerIdBits, sequenceBits, sum,
					fixes(epoch, widths, (int) (TOTAL_BITS - sum))));
		}
		requireSetting("epoch", !epoch.isBefore(Instant.EPOCH), "epoch must not be before %s: %s", Instant.EPOCH,
				epoch);
		Instant now = Instant.now();
		requireSetting("epoch", !epoch.isAfter(now), "epoch must not be in the future: %s (now %s)", epoch, now);
		return new SnowflakeLayout(epoch.toEpochMilli(), timestampBits, workerIdBits, sequenceBits);
	}

	public Instant epoch() {
		return Instant.ofEpochMilli(this.epochMillis);
	}

	public int timestampBits() {
		return this.timestampBits;
	}

	public int workerIdBits() {
		return this.workerIdBits;
	}

	public int sequenceBits() {
		return this.sequenceBits;
	}

	/**
	 * Returns the greatest worker ID; worker IDs are {@code [0, maxWorkerId()]}.
	 * @return {@code 2^workerIdBits - 1}
	 */
	public int maxWorkerId() {
		return this.maxWorkerId;
	}

	/**
	 * Returns the greatest sequence number; one worker issues up to {@code maxSequence() + 1} IDs per millisecond.
	 * @return {@code 2^sequenceBits - 1}
	 */
	public long maxSequence() {
		return this.maxSequence;
	}

	/**
	 * Returns the last millisecond the timestamp field can hold; no ID can be issued after it.
	 * @return the epoch plus {@code 2^timestampBits - 1} milliseconds
	 */
	public Instant exhaustedAt() {
		return Instant.ofEpochMilli(this.epochMillis + this.maxTimestampOffset);
	}

	/**
	 * Composes an ID.
	 * @param unixMillis the timestamp, in milliseconds since 1970-01-01T00:00:00Z, between {@link #epoch()} and
	 * {@link #exhaustedAt()}
	 * @param workerId the worker ID, in {@code [0, maxWorkerId()]}
	 * @param sequence the sequence, in {@code [0, maxSequence()]}
	 * @return the positive ID
	 * @throws IllegalArgumentException if a value is out of its range
	 */
	public long compose(long unixMillis, int workerId, long sequence) {
		long offset = unixMillis - this.epochMillis;
		requireArgument(offset >= 0 && offset <= this.maxTimestampOffset, "timestamp must be in [%s, %s]: %s",
				epoch(), exhaustedAt(), Instant.ofEpochMilli(unixMillis));
		requireArgument(workerId >= 0 && workerId <= this.maxWorkerId, "workerId must be in [0, %s]: %s",
				this.maxWorkerId, workerId);
		requireArgument(sequence >= 0 && sequence <= this.maxSequence, "sequence must be in [0, %s]: %s",
				this.maxSequence, sequence);
		return (offset << this.timestampShift) | ((long) workerId << this.sequenceBits) | sequence;
	}

	/**
	 * Splits an ID into its fields.
	 * @param id an ID of this layout
	 * @return its timestamp, worker ID and sequence
	 * @throws IllegalArgumentException if {@code id} is negative
	 */
	public SnowflakeId parse(long id) {
		requireArgument(id >= 0, "id must not be negative: %s", id);
		long offset = id >>> this.timestampShift;
		int workerId = (int) ((id >>> this.sequenceBits) & this.maxWorkerId);
		long sequence = id & this.maxSequence;
		return new SnowflakeId(id, Instant.ofEpochMilli(this.epochMillis + offset), workerId, sequence);
	}

	/**
	 * Returns the first millisecond from which every ID of this layout is above {@code id}, whatever its worker ID and
	 * sequence: the one after the timestamp {@code id >>> (workerIdBits + sequenceBits)} stands for.
	 * @param id an ID, not negative
	 * @return milliseconds since the Unix epoch, possibly before {@link #epoch()} or after {@link #exhaustedAt()}
	 * @since 0.2.0
	 */
	public long firstMillisAbove(long id) {
		requireArgument(id >= 0, "id must not be negative: %s", id);
		return this.epochMillis + (id >>> this.timestampShift) + 1;
	}

	/**
	 * Returns the greatest ID this layout can issue at timestamps up to {@code unixMillis}: the greatest worker ID and
	 * sequence at that timestamp, or at the last one the layout holds.
	 * @param unixMillis a timestamp, in milliseconds since the Unix epoch
	 * @return the ID, or {@code -1} if the timestamp is before the epoch
	 * @since 0.2.0
	 */
	public long greatestIdUpTo(long unixMillis) {
		if (unixMillis < this.epochMillis) {
			return -1;
		}
		long offset = Math.min(unixMillis - this.epochMillis, this.maxTimestampOffset);
		return (offset << this.timestampShift) | ((long) this.maxWorkerId << this.sequenceBits) | this.maxSequence;
	}

	long epochMillis() {
		return this.epochMillis;
	}

	long maxTimestampOffset() {
		return this.maxTimestampOffset;
	}

	int timestampShift() {
		return this.timestampShift;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return (other instanceof SnowflakeLayout that) && this.epochMillis == that.epochMillis
				&& this.timestampBits == that.timestampBits && this.workerIdBits == that.workerIdBits
				&& this.sequenceBits == that.sequenceBits;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.epochMillis, this.timestampBits, this.workerIdBits, this.sequenceBits);
	}

	/**
	 * Returns whether every ID of this layout is below {@code 2^53}, so JavaScript numbers hold it exactly.
	 * @return whether the bits sum to at most {@value #JAVASCRIPT_SAFE_BITS}
	 */
	public boolean isJavaScriptSafe() {
		return this.timestampBits + this.workerIdBits + this.sequenceBits <= JAVASCRIPT_SAFE_BITS;
	}

	/**
	 * Returns the capacity, e.g. {@code 1024 workers, 4096 IDs/ms, valid until 2089-09-06T15:47:35.551Z}, and
	 * {@code , JavaScript-safe (IDs below 2^53)} for such a layout.
	 */
	@Override
	public String toString() {
		return (1L << this.workerIdBits) + " workers, " + (1L << this.sequenceBits) + " IDs/ms, valid until "
				+ exhaustedAt() + (isJavaScriptSafe() ? ", JavaScript-safe (IDs below 2^53)" : "");
	}

	/**
	 * Checks that the layout's timestamps have not run out: a layout whose last millisecond has passed cannot issue.
	 * @param now the current time
	 * @return this layout
	 * @throws InvalidSettingException naming {@code timestampBits} if the millisecond after {@link #exhaustedAt()}
	 * is not after {@code now}
	 */
	public SnowflakeLayout requireNotExhausted(Instant now) {
		Instant end = exhaustedAt().plusMillis(1);
		requireSetting("timestampBits", end.isAfter(now), "with epoch %s, %s timestamp bits ran out at %s: use more "
				+ "timestamp bits or a later epoch", epoch(), this.timestampBits, end);
		return this;
	}

	/**
	 * Returns the width to blame when the widths do not add up: the one that differs from the default layout, the
	 * worker-ID bits first, as the one most often changed.
	 */
	private static String changedWidth(int[] widths) {
		if (widths[1] != DEFAULT_WORKER_ID_BITS) {
			return "workerIdBits";
		}
		return (widths[2] != DEFAULT_SEQUENCE_BITS) ? "sequenceBits" : "timestampBits";
	}

	/**
	 * Says which width to change by how many bits to reach the total, with what each change gives.
	 * @param epoch the epoch, for the year the timestamp runs out
	 * @param widths timestamp, worker-ID and sequence widths
	 * @param missing bits to add (positive) or remove (negative)
	 */
	private static String fixes(Instant epoch, int[] widths, int missing) {
		String[] names = { "timestampBits", "workerIdBits", "sequenceBits" };
		StringBuilder options = new StringBuilder();
		for (int i = 0; i < 3; i++) {
			int width = widths[i] + missing;
			if (width < 1 || (i == 1 && width > MAX_WORKER_ID_BITS)) {
				continue;
			}
			String gives = switch (i) {
				case 0 -> (width < 62) ? "IDs until " + epoch.plusMillis(1L << width).atZone(ZoneOffset.UTC).getYear()
						: width + " bits of milliseconds";
				case 1 -> (1L << width) + " workers";
				default -> (1L << width) + " IDs/ms per worker";
			};
			options.append((options.length() > 0) ? ", or " : "").append(names[i]).append(" to ").append(width)
				.append(" (").append(gives).append(")");
		}
		return (options.length() == 0) ? "change the widths so that they add up"
				: ((missing < 0) ? "lower " : "raise ") + options;
	}

	private static void requireSetting(String setting, boolean expression, String template, Object... args) {
		if (!expression) {
			throw new InvalidSettingException(setting, String.format(Locale.ROOT, template, args));
		}
	}

	private static void requireArgument(boolean expression, String template, Object... args) {
		if (!expression) {
			throw new IllegalArgumentException(String.format(Locale.ROOT, template, args));
		}
	}

}
