package io.idstarter.autoconfigure.jdbc;

import io.idstarter.testsupport.TestBackends;

/**
 * The Snowflake takeover check on MariaDB.
 */
class MariaDbSnowflakeTakeoverIntegrationTests extends AbstractSnowflakeTakeoverIntegrationTests {

	MariaDbSnowflakeTakeoverIntegrationTests() {
		super(TestBackends.mariadb());
	}

}
