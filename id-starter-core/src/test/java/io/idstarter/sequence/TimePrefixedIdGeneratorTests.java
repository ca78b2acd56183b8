package io.idstarter.sequence;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link TimePrefixedIdGenerator}.
 */
class TimePrefixedIdGeneratorTests {

	private static final long TIME = Instant.parse("2026-11-21T06:14:22.399Z").toEpochMilli();

	@Test
	void anIdIsTheUtcTimeToTheMillisecondAndTheZeroPaddedValue() {
		TimePrefixedIdGenerator ids = new TimePrefixedIdGenerator(new CountingSequence(100, 7), ZoneOffset.UTC,
				fixedClock(TIME));
		assertThat(ids.nextId()).isEqualTo("2026112106142239907");
		assertThat(ids.nextId()).isEqualTo("2026112106142239908");
		assertThat(ids.length()).isEqualTo(19);
	}

	@Test
	void theSequenceIsPaddedToTheDigitsOfMaxMinusOne() {
		assertThat(new TimePrefixedIdGenerator(new CountingSequence(1, 0), ZoneOffset.UTC, fixedClock(TIME)).nextId())
			.isEqualTo("202611210614223990");
		assertThat(new TimePrefixedIdGenerator(new CountingSequence(10, 9), ZoneOffset.UTC, fixedClock(TIME)).nextId())
			.isEqualTo("202611210614223999");
		assertThat(new TimePrefixedIdGenerator(new CountingSequence(101, 5), ZoneOffset.UTC, fixedClock(TIME)).nextId())
			.isEqualTo("20261121061422399005");
	}

	@Test
	void anotherZoneWritesItsLocalTime() {
		TimePrefixedIdGenerator ids = new TimePrefixedIdGenerator(new CountingSequence(100, 0),
				ZoneId.of("Asia/Shanghai"), fixedClock(TIME));
		assertThat(ids.nextId()).isEqualTo("2026112114142239900");
	}

	@Test
	void timesBeforeTheEpochAndMillisecondsAreWrittenInFull() {
		long time = Instant.parse("1969-12-31T23:59:59.001Z").toEpochMilli();
		TimePrefixedIdGenerator ids = new TimePrefixedIdGenerator(new CountingSequence(100, 3), ZoneOffset.UTC,
				fixedClock(time));
		assertThat(ids.nextId()).isEqualTo("1969123123595900103");
	}

	@Test
	void aValueOutsideTheCycleIsRefused() {
		TimePrefixedIdGenerator ids = new TimePrefixedIdGenerator(new CountingSequence(10, 10), ZoneOffset.UTC,
				fixedClock(TIME));
		assertThatIllegalStateException().isThrownBy(ids::nextId)
			.withMessage("cyclic sequence returned 10, outside [0, 10)");
	}

	@Test
	void aSequenceWithoutValuesIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> new TimePrefixedIdGenerator(new CountingSequence(0, 0)))
			.withMessage("max of the cyclic sequence must be at least 1: 0");
	}

	private static TimeSource fixedClock(long millis) {
		return new TimeSource() {

			@Override
			public long currentTimeMillis() {
				return millis;
			}

			@Override
			public long nanoTime() {
				return 0;
			}

		};
	}

	/**
	 * Returns consecutive values from a start, without wrapping (so a test can hand out a bad one).
	 */
	private static final class CountingSequence implements CyclicSequence {

		private final long max;

		private final AtomicLong next;

		CountingSequence(long max, long first) {
			this.max = max;
			this.next = new AtomicLong(first);
		}

		@Override
		public long next() {
			return this.next.getAndIncrement();
		}

		@Override
		public long max() {
			return this.max;
		}

	}

}
