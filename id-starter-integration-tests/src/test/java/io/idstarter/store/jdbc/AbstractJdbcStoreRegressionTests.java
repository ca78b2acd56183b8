package io.idstarter.store.jdbc;

import java.nio.file.Path;
import java.time.Duration;

import io.idstarter.StoreRegressionException;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.UnknownKeyException;
import io.idstarter.store.GuardedSegments;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A relational segment store that loses writes, as an operator would make it: restored from an old backup (the
 * {@code leaf_alloc} row set back) or its row deleted and inserted again. The node's high marks refuse the ranges that
 * would repeat IDs, in the running node and after its restart. Subclasses name the database.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractJdbcStoreRegressionTests {

	private static final String KEY = "order";

	private TestDatabase database;

	private String table;

	private String leaseTable;

	private JdbcSegmentStore store;

	/** Every ID served in one test; each test starts the key afresh. */
	private GuardedSegments nodes;

	private SegmentIdGenerator running;

	@TempDir
	Path directory;

	protected abstract TestDatabase openDatabase();

	@BeforeAll
	void createTables() {
		this.database = openDatabase();
		this.table = TestDatabase.unique("leaf_alloc_");
		this.leaseTable = TestDatabase.unique("id_worker_lease_");
		JdbcSchema.initialize(this.database.dataSource(), this.table, this.leaseTable);
		this.store = new JdbcSegmentStore(this.database.dataSource(), this.table);
	}

	@BeforeEach
	void newDrill() {
		this.nodes = new GuardedSegments();
	}

	@AfterEach
	void stopNode() {
		if (this.running != null) {
			this.running.close();
		}
		this.database.execute("DELETE FROM " + this.table);
	}

	@AfterAll
	void dropTables() {
		if (this.database != null) {
			this.database.dropTables(this.table, this.leaseTable);
			this.database.close();
		}
	}

	@Test
	void storeRestoredFromAnOldBackupIsRefusedByTheRunningAndTheRestartedNode() {
		Path marks = this.directory.resolve("node-a/segment-marks");
		this.store.createKey(KEY, 1, 100, "orders");
		long backup = maxId();
		this.running = this.nodes.start(this.store, marks);
		assertThat(this.nodes.draw(this.running, KEY, 450)).isNull();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.running.marks().highMark(KEY) == maxId());
		long mark = this.running.marks().highMark(KEY);

		this.database.execute("UPDATE " + this.table + " SET max_id = " + backup + " WHERE biz_tag = '" + KEY + "'");
		StoreRegressionException refused = this.nodes.draw(this.running, KEY, 1000);
		assertThat(refused).as("the running node refuses").isNotNull();
		assertThat(refused.knownMark()).isEqualTo(mark);
		assertThat(refused.storeMark()).isLessThan(mark);
		assertThat(refused).hasMessageContaining("'" + KEY + "'").hasMessageContaining(String.valueOf(mark));
		assertThat(this.running.refusedKeys()).containsOnlyKeys(KEY);
		this.running.close();

		this.running = this.nodes.start(this.store, marks);
		assertThat(this.nodes.draw(this.running, KEY, 10)).as("the restarted node refuses too").isNotNull();
		assertThat(this.nodes.duplicates()).isZero();

		// The operator raises max_id above every node's mark: the node serves again, above its mark.
		this.database.execute("UPDATE " + this.table + " SET max_id = " + (mark + 1000) + " WHERE biz_tag = '" + KEY
				+ "'");
		await().atMost(Duration.ofSeconds(10)).ignoreExceptions()
			.until(() -> this.running.nextId(KEY) >= mark + 1000);
		assertThat(this.nodes.duplicates()).isZero();
		System.out.println(this.nodes.figures(this.database + ", leaf_alloc row restored from an old backup"));
	}

	@Test
	void deletedRowIsMissingAndARowInsertedAgainBelowTheMarkIsRefused() {
		Path marks = this.directory.resolve("node-b/segment-marks");
		this.store.createKey(KEY, 1, 100, "orders");
		this.running = this.nodes.start(this.store, marks);
		assertThat(this.nodes.draw(this.running, KEY, 250)).isNull();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.running.marks().highMark(KEY) == maxId());
		long mark = this.running.marks().highMark(KEY);

		this.database.execute("DELETE FROM " + this.table + " WHERE biz_tag = '" + KEY + "'");
		await().atMost(Duration.ofSeconds(5)).until(() -> this.running.missingKeys().containsKey(KEY));
		assertThat(this.running.missingKeys()).containsEntry(KEY, mark);
		assertThatExceptionOfType(UnknownKeyException.class)
			.isThrownBy(() -> this.nodes.drawOrThrow(this.running, KEY, 1000))
			.withMessageContaining("missing from the store");

		// Inserted again as at the start (first ID 1): below the mark, so refused, never served.
		this.store.createKey(KEY, 1, 100, "orders");
		await().atMost(Duration.ofSeconds(5)).until(() -> this.running.missingKeys().isEmpty());
		assertThat(this.nodes.draw(this.running, KEY, 1000)).isNotNull();
		this.running.close();
		this.running = this.nodes.start(this.store, marks);
		assertThat(this.nodes.draw(this.running, KEY, 10)).as("the restarted node refuses too").isNotNull();
		assertThat(this.nodes.duplicates()).isZero();
		System.out.println(this.nodes.figures(this.database + ", leaf_alloc row deleted and inserted again"));
	}

	private long maxId() {
		try (var connection = this.database.dataSource().getConnection();
				var statement = connection
					.prepareStatement("SELECT max_id FROM " + this.table + " WHERE biz_tag = ?")) {
			statement.setString(1, KEY);
			try (var result = statement.executeQuery()) {
				assertThat(result.next()).isTrue();
				return result.getLong(1);
			}
		}
		catch (java.sql.SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
