package io.idstarter.store.jdbc;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.idstarter.lease.LeaseRequest;
import io.idstarter.segment.SegmentAllocation;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link JdbcSchema} and the shipped scripts, on in-memory H2 databases of their own.
 */
class JdbcSchemaTests {

	@Test
	void initializeCreatesBothDefaultTablesThatTheStoresThenUse() {
		JdbcDataSource dataSource = h2();
		JdbcSchema.initialize(dataSource);
		assertThat(tables(dataSource)).containsExactlyInAnyOrder("LEAF_ALLOC", "ID_WORKER_LEASE");
		JdbcSegmentStore store = new JdbcSegmentStore(dataSource);
		assertThat(store.createKey("order", 1, 100, "orders")).isTrue();
		assertThat(store.allocate("order")).isEqualTo(new SegmentAllocation("order", 1, 101, 100));
		JdbcLeaseStore manager = new JdbcLeaseStore(dataSource);
		assertThat(manager.borrow(new LeaseRequest("app", 31, Duration.ofSeconds(10), -1, "host", 0)).workerId())
			.isZero();
	}

	@Test
	void initializeAgainKeepsTheTablesAndTheirRows() {
		JdbcDataSource dataSource = h2();
		JdbcSchema.initialize(dataSource);
		JdbcSegmentStore store = new JdbcSegmentStore(dataSource);
		store.createKey("order", 1, 100, "orders");
		store.allocate("order");
		JdbcSchema.initialize(dataSource);
		assertThat(store.allocate("order")).isEqualTo(new SegmentAllocation("order", 101, 201, 100));
	}

	@Test
	void initializeWithTableNamesCreatesOnlyThoseTables() {
		JdbcDataSource dataSource = h2();
		JdbcSchema.initialize(dataSource, "my_segments", "my_leases");
		assertThat(tables(dataSource)).containsExactlyInAnyOrder("MY_SEGMENTS", "MY_LEASES");
		assertThat(new JdbcSegmentStore(dataSource, "my_segments").keys()).isEmpty();
	}

	@Test
	void initializeRejectsTableNamesThatAreNotIdentifiers() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> JdbcSchema.initialize(h2(), "segments; DROP TABLE x", "leases"))
			.withMessageContaining("'segments; DROP TABLE x'");
	}

	@ParameterizedTest
	@EnumSource(JdbcDialect.class)
	void eachScriptCreatesLeafsTableAndTheLeaseTableIfAbsent(JdbcDialect dialect) {
		String script = JdbcSchema.script(dialect);
		List<String> statements = JdbcSchema.statements(script);
		assertThat(statements).hasSize(2);
		assertThat(statements.get(0)).startsWith("CREATE TABLE IF NOT EXISTS leaf_alloc (")
			.contains("biz_tag varchar(128) NOT NULL DEFAULT ''", "max_id bigint NOT NULL DEFAULT", "step int NOT NULL",
					"description varchar(256) DEFAULT NULL", "update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP",
					"PRIMARY KEY (biz_tag)")
			.doesNotContain("--");
		assertThat(statements.get(1)).startsWith("CREATE TABLE IF NOT EXISTS id_worker_lease (")
			.contains("namespace varchar(128)", "worker_id int NOT NULL", "owner_token varchar(64)", "instance varchar(255)",
					"expires_at bigint NOT NULL", "max_timestamp bigint NOT NULL DEFAULT -1", "updated_at bigint NOT NULL",
					"PRIMARY KEY (namespace, worker_id)");
	}

	@Test
	void statementsAreSplitAtSemicolonsWithoutCommentLines() {
		assertThat(JdbcSchema.statements("-- a comment; with a semicolon\nCREATE TABLE a (x int);\n\n"
				+ "  -- another\nCREATE TABLE b (\n  y int\n);\n")).containsExactly("CREATE TABLE a (x int)",
						"CREATE TABLE b (\n  y int\n)");
	}

	private static JdbcDataSource h2() {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:" + TestDatabase.unique("schema_") + ";DB_CLOSE_DELAY=-1");
		return dataSource;
	}

	private static List<String> tables(JdbcDataSource dataSource) {
		try (Connection connection = dataSource.getConnection()) {
			DatabaseMetaData metaData = connection.getMetaData();
			List<String> tables = new ArrayList<>();
			try (ResultSet rows = metaData.getTables(null, "PUBLIC", "%", new String[] { "TABLE" })) {
				while (rows.next()) {
					tables.add(rows.getString("TABLE_NAME").toUpperCase(Locale.ROOT));
				}
			}
			return tables;
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
