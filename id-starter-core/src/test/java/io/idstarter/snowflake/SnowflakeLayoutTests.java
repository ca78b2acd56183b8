package io.idstarter.snowflake;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.stream.Stream;

import io.idstarter.InvalidSettingException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class SnowflakeLayoutTests {

	private static final Instant RECENT = Instant.now().minus(Duration.ofDays(1)).truncatedTo(ChronoUnit.MILLIS);

	@Test
	void defaultLayoutIsTheClassicOneAndStatesItsCapacity() {
		SnowflakeLayout layout = SnowflakeLayout.defaults();
		assertThat(layout.epoch()).isEqualTo(Instant.parse("2020-01-01T00:00:00Z"));
		assertThat(layout.timestampBits()).isEqualTo(41);
		assertThat(layout.workerIdBits()).isEqualTo(10);
		assertThat(layout.sequenceBits()).isEqualTo(12);
		assertThat(layout.maxWorkerId()).isEqualTo(1023);
		assertThat(layout.maxSequence()).isEqualTo(4095);
		assertThat(layout.exhaustedAt()).isEqualTo(Instant.parse("2089-09-06T15:47:35.551Z"));
		assertThat(layout).hasToString("1024 workers, 4096 IDs/ms, valid until 2089-09-06T15:47:35.551Z");
	}

	static Stream<SnowflakeLayout> layouts() {
		return Stream.of(SnowflakeLayout.defaults(), SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 39, 12, 12),
				SnowflakeLayout.of(RECENT, 31, 16, 16), SnowflakeLayout.of(RECENT, 40, 1, 22));
	}

	@ParameterizedTest
	@MethodSource("layouts")
	void parseReturnsWhatComposeWasGiven(SnowflakeLayout layout) {
		long epoch = layout.epoch().toEpochMilli();
		long last = layout.exhaustedAt().toEpochMilli();
		long[] timestamps = { epoch, epoch + 1, (epoch + last) / 2, last - 1, last };
		int[] workerIds = { 0, 1, layout.maxWorkerId() / 2, layout.maxWorkerId() };
		long[] sequences = { 0, 1, layout.maxSequence() };
		for (long timestamp : timestamps) {
			for (int workerId : workerIds) {
				for (long sequence : sequences) {
					long id = layout.compose(timestamp, workerId, sequence);
					assertThat(id).isNotNegative();
					assertThat(layout.parse(id))
						.isEqualTo(new SnowflakeId(id, Instant.ofEpochMilli(timestamp), workerId, sequence));
				}
			}
		}
	}

	@ParameterizedTest
	@MethodSource("layouts")
	void idsOrderByTimestampThenWorkerThenSequence(SnowflakeLayout layout) {
		long epoch = layout.epoch().toEpochMilli();
		long highestOfFirstMillisecond = layout.compose(epoch, layout.maxWorkerId(), layout.maxSequence());
		assertThat(layout.compose(epoch + 1, 0, 0)).isEqualTo(highestOfFirstMillisecond + 1);
		assertThat(layout.compose(layout.exhaustedAt().toEpochMilli(), layout.maxWorkerId(), layout.maxSequence()))
			.isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void javaScriptSafeLayoutKeepsEveryIdBelow2To53() {
		SnowflakeLayout layout = SnowflakeLayout.javaScriptSafe(SnowflakeLayout.DEFAULT_EPOCH, 41, 6, 6);
		assertThat(layout.isJavaScriptSafe()).isTrue();
		assertThat(SnowflakeLayout.defaults().isJavaScriptSafe()).isFalse();
		long largest = layout.compose(layout.exhaustedAt().toEpochMilli(), layout.maxWorkerId(), layout.maxSequence());
		assertThat(largest).isEqualTo((1L << 53) - 1);
		assertThat(layout.parse(largest).workerId()).isEqualTo(63);
		assertThat(layout).hasToString("64 workers, 64 IDs/ms, valid until " + layout.exhaustedAt()
				+ ", JavaScript-safe (IDs below 2^53)");
	}

	@Test
	void javaScriptSafeBitsMustSumToAtMost53() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SnowflakeLayout.javaScriptSafe(SnowflakeLayout.DEFAULT_EPOCH, 41, 7, 6))
			.withMessage("timestampBits + workerIdBits + sequenceBits must be at most 53 so that every ID stays below "
					+ "2^53, but 41 + 7 + 6 = 54: lower timestampBits to 40 (IDs until 2054), or workerIdBits to 6 (64 "
					+ "workers), or sequenceBits to 5 (32 IDs/ms per worker)")
			.isInstanceOfSatisfying(InvalidSettingException.class,
					(ex) -> assertThat(ex.getSetting()).isEqualTo("workerIdBits"));
		assertThat(SnowflakeLayout.javaScriptSafe(SnowflakeLayout.DEFAULT_EPOCH, 40, 6, 6).maxWorkerId()).isEqualTo(63);
	}

	@Test
	void bitsMustSumTo63() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 41, 10, 13))
			.withMessage("timestampBits + workerIdBits + sequenceBits must be 63 so that every ID is a positive long, "
					+ "but 41 + 10 + 13 = 64: lower timestampBits to 40 (IDs until 2054), or workerIdBits to 9 (512 "
					+ "workers), or sequenceBits to 12 (4096 IDs/ms per worker)")
			.isInstanceOfSatisfying(InvalidSettingException.class,
					(ex) -> assertThat(ex.getSetting()).isEqualTo("sequenceBits"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 40, 10, 12))
			.withMessageContaining("40 + 10 + 12 = 62: raise timestampBits to 41")
			.isInstanceOfSatisfying(InvalidSettingException.class,
					(ex) -> assertThat(ex.getSetting()).isEqualTo("timestampBits"));
	}

	@Test
	void everyFieldNeedsAtLeastOneBit() {
		assertThatIllegalArgumentException().isThrownBy(() -> SnowflakeLayout.of(RECENT, 0, 31, 32))
			.withMessage("timestampBits must be at least 1: 0");
		assertThatIllegalArgumentException().isThrownBy(() -> SnowflakeLayout.of(RECENT, 51, 0, 12))
			.withMessage("workerIdBits must be in [1, 31]: 0");
		assertThatIllegalArgumentException().isThrownBy(() -> SnowflakeLayout.of(RECENT, 20, 32, 11))
			.withMessage("workerIdBits must be in [1, 31]: 32");
		assertThatIllegalArgumentException().isThrownBy(() -> SnowflakeLayout.of(RECENT, 53, 10, 0))
			.withMessage("sequenceBits must be at least 1: 0");
	}

	@Test
	void epochMustNotBeInTheFutureNorBefore1970() {
		Instant future = Instant.now().plus(Duration.ofDays(1));
		assertThatIllegalArgumentException().isThrownBy(() -> SnowflakeLayout.of(future, 41, 10, 12))
			.withMessageStartingWith("epoch must not be in the future: " + future + " (now ");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> SnowflakeLayout.of(Instant.parse("1969-12-31T23:59:59Z"), 41, 10, 12))
			.withMessage("epoch must not be before 1970-01-01T00:00:00Z: 1969-12-31T23:59:59Z");
	}

	@Test
	void epochIsTruncatedToTheMillisecond() {
		SnowflakeLayout layout = SnowflakeLayout.of(Instant.parse("2024-05-06T07:08:09.123456789Z"), 41, 10, 12);
		assertThat(layout.epoch()).isEqualTo(Instant.parse("2024-05-06T07:08:09.123Z"));
		assertThat(layout).isEqualTo(SnowflakeLayout.of(Instant.parse("2024-05-06T07:08:09.123Z"), 41, 10, 12))
			.isNotEqualTo(SnowflakeLayout.of(Instant.parse("2024-05-06T07:08:09.124Z"), 41, 10, 12));
	}

	@Test
	void composeRejectsValuesOutsideTheirFields() {
		SnowflakeLayout layout = SnowflakeLayout.defaults();
		long now = System.currentTimeMillis();
		assertThatIllegalArgumentException().isThrownBy(() -> layout.compose(now, 1024, 0))
			.withMessage("workerId must be in [0, 1023]: 1024");
		assertThatIllegalArgumentException().isThrownBy(() -> layout.compose(now, -1, 0))
			.withMessage("workerId must be in [0, 1023]: -1");
		assertThatIllegalArgumentException().isThrownBy(() -> layout.compose(now, 0, 4096))
			.withMessage("sequence must be in [0, 4095]: 4096");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> layout.compose(SnowflakeLayout.DEFAULT_EPOCH.toEpochMilli() - 1, 0, 0))
			.withMessage("timestamp must be in [2020-01-01T00:00:00Z, 2089-09-06T15:47:35.551Z]: "
					+ "2019-12-31T23:59:59.999Z");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> layout.compose(layout.exhaustedAt().toEpochMilli() + 1, 0, 0))
			.withMessageEndingWith(": 2089-09-06T15:47:35.552Z");
	}

	@Test
	void parseRejectsNegativeIds() {
		assertThatIllegalArgumentException().isThrownBy(() -> SnowflakeLayout.defaults().parse(-1))
			.withMessage("id must not be negative: -1");
	}

	@Test
	void aLayoutWhoseTimestampsRanOutIsRefusedNamingTheTimestampBits() {
		SnowflakeLayout layout = SnowflakeLayout.of(SnowflakeLayout.DEFAULT_EPOCH, 30, 20, 13);
		assertThatIllegalArgumentException().isThrownBy(() -> layout.requireNotExhausted(Instant.now()))
			.withMessage("with epoch 2020-01-01T00:00:00Z, 30 timestamp bits ran out at 2020-01-13T10:15:41.824Z: use "
					+ "more timestamp bits or a later epoch")
			.isInstanceOfSatisfying(InvalidSettingException.class,
					(ex) -> assertThat(ex.getSetting()).isEqualTo("timestampBits"));
		assertThat(SnowflakeLayout.defaults().requireNotExhausted(Instant.now())).isSameAs(SnowflakeLayout.defaults());
	}

	@Test
	void theDefaultJavaScriptSafeLayoutHas64WorkersAnd64IdsPerMillisecondForAsLongAsTheDefaultLayout() {
		SnowflakeLayout layout = SnowflakeLayout.javaScriptSafe(SnowflakeLayout.DEFAULT_EPOCH);
		assertThat(layout.timestampBits()).isEqualTo(SnowflakeLayout.defaults().timestampBits());
		assertThat(layout.maxWorkerId()).isEqualTo(63);
		assertThat(layout.maxSequence()).isEqualTo(63);
	}

}
