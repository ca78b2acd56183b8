package io.idstarter.store.jdbc;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link JdbcSequenceSegmentStore} on a real MariaDB server.
 */
class JdbcSequenceSegmentStoreMariaDbIntegrationTests extends AbstractJdbcSequenceSegmentStoreTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.mariadb();
	}

	@Test
	void aStepChangeIsRefusedNamingTheSequenceAndHowToChangeIt() {
		// MariaDB keeps the next value computed with the old increment: without a cache, ALTER SEQUENCE ... INCREMENT
		// BY 100 after values 10 and 20 of a step of 10 gives 30 next, whose range of 100 would overlap both.
		String key = newKey();
		this.store.createKey(key, 1, 10, "");
		long end = this.store.allocate(key).end();
		String sequence = this.store.sequenceName(key);
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(() -> this.store.updateStep(key, 100))
			.withMessageContaining("'" + sequence + "'")
			.withMessageContaining("RESTART WITH");
		assertThat(this.store.allocate(key).start()).as("the step is unchanged").isEqualTo(end);
		assertThat(this.store.allocate(key).size()).isEqualTo(10);
	}

}
