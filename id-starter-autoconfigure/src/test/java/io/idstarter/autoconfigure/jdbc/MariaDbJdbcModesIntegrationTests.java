package io.idstarter.autoconfigure.jdbc;

import io.idstarter.testsupport.TestBackends;

/**
 * SEGMENT and DB modes on MariaDB.
 */
class MariaDbJdbcModesIntegrationTests extends AbstractJdbcModesIntegrationTests {

	MariaDbJdbcModesIntegrationTests() {
		super(TestBackends.mariadb());
	}

}
