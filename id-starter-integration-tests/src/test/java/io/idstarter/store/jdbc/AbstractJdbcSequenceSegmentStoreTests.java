package io.idstarter.store.jdbc;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.idstarter.StoreRegressionException;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.UnknownKeyException;
import io.idstarter.store.GuardedSegments;
import io.idstarter.testsupport.contract.AbstractSegmentStoreContractTests;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * {@link JdbcSequenceSegmentStore} on every database with sequences (subclasses name it): the segment contract of
 * {@link AbstractSegmentStoreContractTests} with ranges of the sequence's step, and what is particular to sequences
 * (the step read from the catalog, a sequence made by hand, a missing one, one restarted below a node's mark). Each
 * class uses sequences of its own prefix, dropped at the end.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractJdbcSequenceSegmentStoreTests extends AbstractSegmentStoreContractTests {

	protected TestDatabase database;

	protected JdbcSequenceSegmentStore store;

	private String prefix;

	private final List<String> handMade = new ArrayList<>();

	@TempDir
	Path directory;

	protected abstract TestDatabase openDatabase();

	@BeforeAll
	void openStore() {
		this.database = openDatabase();
		this.prefix = TestDatabase.unique("s") + "_";
		this.store = new JdbcSequenceSegmentStore(this.database.dataSource(), this.prefix, Map.of());
	}

	@AfterAll
	void dropSequences() {
		if (this.database != null) {
			List<String> sequences = new ArrayList<>(this.handMade);
			this.store.keys().forEach((key) -> sequences.add(this.store.sequenceName(key)));
			sequences.forEach((sequence) -> this.database.execute("DROP SEQUENCE IF EXISTS " + sequence));
			this.database.close();
		}
	}

	@Override
	protected SegmentStore createStore() {
		return this.store;
	}

	@Override
	protected @Nullable SegmentStore createStoreWithoutStorage() {
		return null;
	}

	@Override
	protected String withoutStorageSkipReason() {
		return "each key is a sequence of its own: a missing one is an unknown key (tested on its own)";
	}

	@Override
	protected boolean honoursCallersStep() {
		return false;
	}

	/** A sequence never moves back. */
	@Override
	protected boolean givesBack() {
		return false;
	}

	/** Each key is a sequence of its own; the list is read from the database's catalog. */
	@Override
	protected boolean keepsKeysMarker() {
		return false;
	}

	/** Prefix (12 characters) and the contract's keys ({@code contract-key-} and hex, two escaped dashes) in 63. */
	@Override
	protected int maxKeyLength() {
		return JdbcSequenceSegmentStore.MAX_NAME_LENGTH - this.prefix.length() - 2;
	}

	private String handMadeSequence(String ddlTail) {
		String sequence = TestDatabase.unique("orders_seq_");
		this.handMade.add(sequence);
		this.database.execute("CREATE SEQUENCE " + sequence + " " + ddlTail);
		return sequence;
	}

	@Test
	void aSequenceMadeByHandServesItsIncrementAsTheStepWithTheValueAsTheTopOfTheRange() {
		String sequence = handMadeSequence("START WITH 1 INCREMENT BY 50");
		JdbcSequenceSegmentStore mapped = new JdbcSequenceSegmentStore(this.database.dataSource(), this.prefix,
				Map.of("order", sequence));
		assertThat(mapped.allocate("order")).as("cut at MINVALUE 1").isEqualTo(new SegmentAllocation("order", 1, 2, 50));
		assertThat(mapped.allocate("order")).isEqualTo(new SegmentAllocation("order", 2, 52, 50));
		assertThat(mapped.allocate("order", 500)).as("a caller's step cannot be honoured")
			.isEqualTo(new SegmentAllocation("order", 52, 102, 50));
		assertThat(mapped.keys()).contains("order");
		this.database.execute("ALTER SEQUENCE " + sequence + " INCREMENT BY 20");
		SegmentAllocation afterAlter = mapped.allocate("order");
		assertThat(afterAlter.configuredStep()).as("the step is read from the catalog, never assumed").isEqualTo(20);
		assertThat(afterAlter.size()).isEqualTo(20);
		// PostgreSQL continues at the last value plus the new step; H2 and MariaDB at the value computed before.
		assertThat(afterAlter.start()).as("above the last range").isGreaterThanOrEqualTo(102);
	}

	@Test
	void keysMapToEscapedSequenceNamesAndBack() {
		for (String key : new String[] { "order", "order-line", "a.b:c_d", "Invoice", "x_0" }) {
			String name = this.store.sequenceName(key);
			assertThat(name).matches("[a-z0-9_]+").startsWith(this.prefix);
			assertThat(this.store.keyOf(name)).as(name).isEqualTo(key);
			assertThat(this.store.keyOf(name.toUpperCase(java.util.Locale.ROOT))).as("as H2 reports it").isEqualTo(key);
		}
		assertThat(this.store.sequenceName("a-b")).isNotEqualTo(this.store.sequenceName("a_b"))
			.isNotEqualTo(this.store.sequenceName("a.b"));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new JdbcSequenceSegmentStore(this.database.dataSource(), "p_", Map.of("k", "s; drop")))
			.withMessageContaining("'s; drop'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new JdbcSequenceSegmentStore(this.database.dataSource(), "p'", Map.of()))
			.withMessageContaining("'p''");
	}

	@Test
	void aMissingSequenceIsAnUnknownKeyNamingTheSequenceAndItsDdl() {
		String key = TestDatabase.unique("missing-");
		String sequence = this.store.sequenceName(key);
		assertThatExceptionOfType(UnknownKeyException.class).isThrownBy(() -> this.store.allocate(key))
			.withMessageContaining("sequence '" + sequence + "' does not exist")
			.withMessageContaining("CREATE SEQUENCE " + sequence + " INCREMENT BY <step>")
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo(key));
	}

	@Test
	void aSequenceRestartedBelowTheNodesMarkIsRefusedByTheRunningAndTheRestartedNode() {
		String key = TestDatabase.unique("restart-");
		this.store.createKey(key, 1, 100, "orders");
		String sequence = this.store.sequenceName(key);
		GuardedSegments nodes = new GuardedSegments();
		Path marks = this.directory.resolve("node-" + key + "/segment-marks");
		SegmentIdGenerator running = nodes.start(this.store, marks);
		try {
			assertThat(nodes.draw(running, key, 450)).isNull();
			await().atMost(Duration.ofSeconds(5)).until(() -> running.marks().highMark(key) >= 500);
			long mark = running.marks().highMark(key);

			this.database.execute("ALTER SEQUENCE " + sequence + " RESTART WITH 100");
			StoreRegressionException refused = nodes.draw(running, key, 1000);
			assertThat(refused).as("the running node refuses").isNotNull();
			assertThat(refused.knownMark()).isEqualTo(mark);
			assertThat(refused.storeMark()).isLessThan(mark);
			assertThat(refused).hasMessageContaining("'" + key + "'");
		}
		finally {
			running.close();
		}
		SegmentIdGenerator restarted = nodes.start(this.store, marks);
		try {
			assertThat(nodes.draw(restarted, key, 10)).as("the restarted node refuses too").isNotNull();
			assertThat(nodes.duplicates()).isZero();
		}
		finally {
			restarted.close();
		}
	}

}
