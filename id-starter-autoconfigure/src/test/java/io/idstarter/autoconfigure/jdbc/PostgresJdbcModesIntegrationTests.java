package io.idstarter.autoconfigure.jdbc;

import io.idstarter.testsupport.TestBackends;

/**
 * SEGMENT and DB modes on PostgreSQL.
 */
class PostgresJdbcModesIntegrationTests extends AbstractJdbcModesIntegrationTests {

	PostgresJdbcModesIntegrationTests() {
		super(TestBackends.postgres());
	}

}
