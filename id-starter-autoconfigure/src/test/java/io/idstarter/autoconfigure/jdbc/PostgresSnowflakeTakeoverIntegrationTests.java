package io.idstarter.autoconfigure.jdbc;

import io.idstarter.testsupport.TestBackends;

/**
 * The Snowflake takeover check on PostgreSQL.
 */
class PostgresSnowflakeTakeoverIntegrationTests extends AbstractSnowflakeTakeoverIntegrationTests {

	PostgresSnowflakeTakeoverIntegrationTests() {
		super(TestBackends.postgres());
	}

}
