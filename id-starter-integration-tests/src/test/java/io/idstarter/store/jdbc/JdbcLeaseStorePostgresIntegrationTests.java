package io.idstarter.store.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.JdbcBackend;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link JdbcLeaseStore} on a real PostgreSQL server.
 */
class JdbcLeaseStorePostgresIntegrationTests extends AbstractJdbcLeaseStoreTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.postgres();
	}

	@Test
	void identityKeepsNeitherThePasswordNorTheConnectionParameters() {
		JdbcBackend backend = TestBackends.postgres();
		String identity = identity(backend.jdbcUrl());
		String separator = backend.jdbcUrl().contains("?") ? "&" : "?";
		String tuned = identity(backend.jdbcUrl() + separator + "connectTimeout=7&password=" + backend.password());
		assertThat(tuned).as("a connection parameter changed").isEqualTo(identity);
		assertThat(identity).contains(backend.database()).doesNotContain("connectTimeout");
		assertThat(tuned).doesNotContain("password");
	}

	private String identity(String url) {
		try (HikariDataSource dataSource = new HikariDataSource()) {
			dataSource.setJdbcUrl(url);
			dataSource.setUsername(TestBackends.postgres().username());
			dataSource.setPassword(TestBackends.postgres().password());
			dataSource.setMaximumPoolSize(1);
			return new JdbcLeaseStore(dataSource, this.table).identity();
		}
	}

}
