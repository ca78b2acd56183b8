package io.idstarter.store.jdbc;

import java.time.ZoneOffset;
import java.util.List;

import io.idstarter.IdWorkerListener;
import io.idstarter.segment.PeriodicKey;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.ResetPeriod;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link JdbcSequenceSegmentStore} on an in-memory H2 database.
 */
class JdbcSequenceSegmentStoreTests extends AbstractJdbcSequenceSegmentStoreTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.h2();
	}

	@Test
	void periodicKeysAreRefusedAtStartSinceASequenceRecordsNoZoneAndCannotBeDeletedByRetention() {
		SegmentIdGenerator generator = new SegmentIdGenerator(this.store, SegmentOptions.builder().build(),
				TimeSource.system(), IdWorkerListener.NONE, null);
		generator.start();
		try {
			assertThatIllegalArgumentException()
				.isThrownBy(() -> new PeriodicNumbers(generator, this.store,
						List.of(PeriodicKey.of("invoice", ResetPeriod.DAILY, "INV-{yyyyMMdd}-{seq:6}")), ZoneOffset.UTC,
						TimeSource.system()))
				.withMessageContaining("keeps key descriptions")
				.withMessageContaining(JdbcSequenceSegmentStore.class.getName());
			assertThat(this.store.keys()).as("no period's sequence was created")
				.noneMatch((key) -> key.startsWith("invoice"));
		}
		finally {
			generator.close();
		}
	}

}
