package io.idstarter.store.jdbc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import io.idstarter.segment.SegmentAllocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link JdbcSequenceSegmentStore} on a real Postgres server.
 */
class JdbcSequenceSegmentStorePostgresIntegrationTests extends AbstractJdbcSequenceSegmentStoreTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.postgres();
	}

	@Test
	void aStepChangedWhileAnotherSessionHoldsCachedValuesOverlapsNoRange() {
		// With CACHE 5, a session keeps values computed with the old increment. ALTER SEQUENCE ... INCREMENT BY
		// rewrites the sequence (PostgreSQL 10 and later), and a session drops its cached values when it sees that, so
		// its next value is the last one plus the new step, not a cached one whose range would overlap.
		String key = newKey();
		this.store.createKey(key, 1, 10, "");
		String sequence = this.store.sequenceName(key);
		this.database.execute("ALTER SEQUENCE " + sequence + " CACHE 5");
		JdbcSequenceSegmentStore session = new JdbcSequenceSegmentStore(this.database.singleConnection(), "",
				Map.of(key, sequence));
		List<SegmentAllocation> ranges = new ArrayList<>();
		ranges.add(session.allocate(key));
		ranges.add(session.allocate(key));
		ranges.add(this.store.allocate(key));
		this.store.updateStep(key, 100);
		ranges.add(session.allocate(key));
		ranges.add(this.store.allocate(key));
		ranges.add(session.allocate(key));
		assertThat(ranges.get(3).size()).isEqualTo(100);
		ranges.sort(Comparator.comparingLong(SegmentAllocation::start));
		for (int i = 1; i < ranges.size(); i++) {
			assertThat(ranges.get(i).start()).as("%s overlaps none of %s", ranges.get(i), ranges)
				.isGreaterThanOrEqualTo(ranges.get(i - 1).end());
		}
	}

}
