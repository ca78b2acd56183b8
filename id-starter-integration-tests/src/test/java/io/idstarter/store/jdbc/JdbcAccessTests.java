package io.idstarter.store.jdbc;

import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;

import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link JdbcAccess} and {@link JdbcDialect}: what the stores decide from a driver's exception, table names
 * and URLs.
 */
class JdbcAccessTests {

	@Test
	void aMissingTableIsRecognisedBySqlStateOnEveryDatabase() {
		assertThat(JdbcAccess.isMissingTable(new SQLException("relation does not exist", "42P01"))).isTrue();
		assertThat(JdbcAccess.isMissingTable(new SQLException("Table 'x' doesn't exist", "42S02", 1146))).isTrue();
		assertThat(JdbcAccess.isMissingTable(new SQLException("Table not found", "42S02", 42102))).isTrue();
		assertThat(JdbcAccess.isMissingTable(new SQLException("Table not found", "42S02", 42104))).isTrue();
		assertThat(JdbcAccess.isMissingTable(new SQLException("wrapped", "08000", 0,
				new SQLException("inner", "42P01")))).isTrue();
	}

	@Test
	void otherErrorsAreNotTakenForAMissingTable() {
		assertThat(JdbcAccess.isMissingTable(new SQLException("syntax error", "42601"))).isFalse();
		assertThat(JdbcAccess.isMissingTable(new SQLException("column does not exist", "42703"))).isFalse();
		assertThat(JdbcAccess.isMissingTable(new SQLException("Table 'x' doesn't exist", null, 0))).isFalse();
		assertThat(JdbcAccess.isMissingTable(new SQLException("connection refused", "08001"))).isFalse();
	}

	@Test
	void aDuplicateKeyIsRecognisedButOtherConstraintViolationsAreNot() {
		assertThat(JdbcAccess.isDuplicateKey(new SQLException("duplicate key", "23505"))).isTrue();
		assertThat(JdbcAccess.isDuplicateKey(new SQLIntegrityConstraintViolationException("Duplicate entry", "23000",
				1062))).isTrue();
		assertThat(JdbcAccess.isDuplicateKey(new SQLException("Column cannot be null", "23000", 1048))).isFalse();
		assertThat(JdbcAccess.isDuplicateKey(new SQLException("null value violates not-null", "23502"))).isFalse();
	}

	@Test
	void serializationFailuresAndDeadlocksAreConcurrencyConflicts() {
		assertThat(JdbcAccess.isConcurrencyConflict(new SQLException("could not serialize", "40001"))).isTrue();
		assertThat(JdbcAccess.isConcurrencyConflict(new SQLException("deadlock detected", "40P01"))).isTrue();
		assertThat(JdbcAccess.isConcurrencyConflict(new SQLException("Deadlock found", "40001", 1213))).isTrue();
		assertThat(JdbcAccess.isConcurrencyConflict(new SQLException("lock wait timeout", "HY000", 1205))).isFalse();
	}

	@Test
	void identityNamesTheDatabaseAndTheTableButNotTheConnectionParameters() throws SQLException {
		String identity = identity("jdbc:h2:mem:identity;DB_CLOSE_DELAY=-1", "id_worker_lease");
		assertThat(identity).startsWith("JDBC lease store at jdbc:h2:mem:identity, ")
			.endsWith(", table id_worker_lease")
			.doesNotContain("DB_CLOSE_DELAY");
		assertThat(identity("jdbc:h2:mem:identity;DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=5000", "id_worker_lease"))
			.as("a parameter changed").isEqualTo(identity);
		assertThat(identity("jdbc:h2:mem:identity;DB_CLOSE_DELAY=-1", "other_lease")).isNotEqualTo(identity);
		assertThat(identity("jdbc:h2:mem:identity2;DB_CLOSE_DELAY=-1", "id_worker_lease")).isNotEqualTo(identity);
	}

	private static String identity(String url, String table) throws SQLException {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL(url);
		return new JdbcAccess(dataSource, "JDBC lease store").identity(table);
	}

	@ParameterizedTest
	@ValueSource(strings = { "leaf_alloc", "LEAF_ALLOC", "_t", "ids.leaf_alloc", "t1" })
	void sqlIdentifiersAreAcceptedAsTableNames(String name) {
		assertThat(JdbcAccess.checkTableName(name)).isEqualTo(name);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "1t", "leaf-alloc", "leaf alloc", "t;drop table x", "a.b.c", "\"quoted\"", "t.",
			"ключ" })
	void otherTableNamesAreRejectedWithTheRule(String name) {
		assertThatIllegalArgumentException().isThrownBy(() -> JdbcAccess.checkTableName(name))
			.withMessageContaining("table name must be an SQL identifier")
			.withMessageContaining("'" + name + "'");
	}

	@Test
	void tableNamesAreLimitedTo63CharactersPerPart() {
		assertThat(JdbcAccess.checkTableName("t".repeat(63))).hasSize(63);
		assertThatIllegalArgumentException().isThrownBy(() -> JdbcAccess.checkTableName("t".repeat(64)));
	}

	@Test
	void passwordsAreMaskedInUrls() {
		assertThat(JdbcAccess.maskUrl("jdbc:postgresql://db:5432/app?user=u&password=s3cret&ssl=true"))
			.isEqualTo("jdbc:postgresql://db:5432/app?user=u&password=***&ssl=true");
		assertThat(JdbcAccess.maskUrl("jdbc:mariadb://u:s3cret@db:3306/app")).isEqualTo("jdbc:mariadb://***@db:3306/app");
		assertThat(JdbcAccess.maskUrl("jdbc:h2:mem:x;PASSWORD=s3cret;MODE=MySQL"))
			.isEqualTo("jdbc:h2:mem:x;PASSWORD=***;MODE=MySQL");
		assertThat(JdbcAccess.maskUrl("jdbc:h2:mem:x")).isEqualTo("jdbc:h2:mem:x");
	}

	@Test
	void dialectsAreFoundByTheProductNameDriversReport() {
		assertThat(JdbcDialect.find("MySQL")).isEqualTo(JdbcDialect.MYSQL);
		assertThat(JdbcDialect.find("MariaDB")).isEqualTo(JdbcDialect.MYSQL);
		assertThat(JdbcDialect.find("PostgreSQL")).isEqualTo(JdbcDialect.POSTGRESQL);
		assertThat(JdbcDialect.find("H2")).isEqualTo(JdbcDialect.H2);
		assertThat(JdbcDialect.find("Oracle")).isNull();
		assertThat(JdbcDialect.find(null)).isNull();
		assertThat(JdbcDialect.unsupported("Oracle")).contains("'Oracle'").contains("MySQL, MariaDB, PostgreSQL, H2");
	}

	@Test
	void eachDialectNamesItsShippedScript() {
		assertThat(JdbcDialect.MYSQL.schemaLocation()).isEqualTo("io/idstarter/store/jdbc/schema-mysql.sql");
		assertThat(JdbcDialect.POSTGRESQL.schemaLocation()).isEqualTo("io/idstarter/store/jdbc/schema-postgresql.sql");
		assertThat(JdbcDialect.H2.schemaLocation()).isEqualTo("io/idstarter/store/jdbc/schema-h2.sql");
		for (JdbcDialect dialect : JdbcDialect.values()) {
			assertThat(getClass().getClassLoader().getResource(dialect.schemaLocation())).as(dialect.name()).isNotNull();
		}
	}

}
