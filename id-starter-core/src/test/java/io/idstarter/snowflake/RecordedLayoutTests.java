package io.idstarter.snowflake;

import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RecordedLayoutTests {

	@Test
	void theStoredFormReadsBackAsTheSameLayoutAndPreset() {
		RecordedLayout twitter = new RecordedLayout(SnowflakePresets.twitter(), "twitter");
		assertThat(twitter.format()).isEqualTo("epoch=2010-11-04T01:42:54.657Z;timestamp-bits=41;worker-id-bits=10;"
				+ "sequence-bits=12;preset=twitter");
		assertThat(RecordedLayout.parse(twitter.format())).isEqualTo(twitter);
		RecordedLayout safe = new RecordedLayout(SnowflakeLayout.javaScriptSafe(SnowflakeLayout.DEFAULT_EPOCH), null);
		assertThat(RecordedLayout.parse(safe.format())).isEqualTo(safe);
		RecordedLayout zoned = new RecordedLayout(SnowflakePresets.shardingSphere(ZoneOffset.ofHours(8), Instant.now()),
				"shardingsphere");
		assertThat(RecordedLayout.parse(zoned.format()).layout().epoch())
			.isEqualTo(Instant.parse("2016-10-31T16:00:00Z"));
	}

	@Test
	void aPendingRecordKeepsTheReplacedRecordsLayoutAndFloorSoThatItCanBePutBackExactly() {
		RecordedLayout old = new RecordedLayout(SnowflakeLayout.defaults(), "old").completedAbove(123_456_789);
		RecordedLayout pending = new RecordedLayout(SnowflakePresets.twitter(), "twitter").replacing(old);
		assertThat(pending.format()).endsWith(";replacing=2020-01-01T00:00:00Z/41/10/12/123456789");
		RecordedLayout read = RecordedLayout.parse(pending.format());
		assertThat(read).isEqualTo(pending);
		assertThat(read.replacing()).isEqualTo(new RecordedLayout(SnowflakeLayout.defaults(), null, 123_456_789, null));
		assertThatIllegalArgumentException().isThrownBy(() -> pending.replacing(pending))
			.withMessageContaining("never replaced");
	}

	@Test
	void keysALaterVersionAddsAreSkipped() {
		String later = new RecordedLayout(SnowflakeLayout.defaults(), null).format() + ";clock=store";
		assertThat(RecordedLayout.parse(later).layout()).isEqualTo(SnowflakeLayout.defaults());
	}

	@Test
	void layoutsAreTheSameByTheirValuesWhateverThePresetsAreCalled() {
		RecordedLayout twitter = new RecordedLayout(SnowflakePresets.twitter(), "twitter");
		RecordedLayout leaf = new RecordedLayout(SnowflakePresets.leaf(), "leaf");
		assertThat(twitter.sameLayoutAs(leaf)).isTrue();
		assertThat(twitter.sameLayoutAs(new RecordedLayout(SnowflakeLayout.defaults(), null))).isFalse();
		assertThat(twitter.describe()).isEqualTo(
				"epoch 2010-11-04T01:42:54.657Z, 41/10/12 timestamp/worker-ID/sequence bits (preset twitter)");
	}

	@Test
	void aRecordWrittenBySomethingElseIsRefusedWithItsText() {
		assertThatIllegalArgumentException().isThrownBy(() -> RecordedLayout.parse("hello"))
			.withMessageContaining("'hello'")
			.withMessageContaining("'epoch' is missing");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RecordedLayout.parse("epoch=2020-01-01T00:00:00Z;timestamp-bits=41;worker-id-bits=x;"
					+ "sequence-bits=12"))
			.withMessageContaining("not a recorded Snowflake layout");
		assertThatIllegalArgumentException().isThrownBy(() -> new RecordedLayout(SnowflakeLayout.defaults(), "a;b"));
	}

	@Test
	void aStoreKeepsTextsOfOneToMaxLengthCharactersAndRefusesOthersNamingTheLength() {
		String longest = "x".repeat(RecordedLayout.MAX_LENGTH);
		assertThat(RecordedLayout.requireStorable("layout", longest)).isSameAs(longest);
		assertThatIllegalArgumentException().isThrownBy(() -> RecordedLayout.requireStorable("layout", longest + "y"))
			.withMessageStartingWith("layout must be 1 to 255 characters")
			.withMessageContaining("was 256: 'xxx")
			.withMessageEndingWith("...'");
		assertThatIllegalArgumentException().isThrownBy(() -> RecordedLayout.requireStorable("replacement", ""))
			.withMessageStartingWith("replacement must be 1 to 255 characters")
			.withMessageContaining("was 0");
	}

}
