package io.idstarter.store.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

import io.idstarter.segment.SegmentAllocation;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link JdbcSegmentStore} on an in-memory H2 database.
 */
class JdbcSegmentStoreTests extends AbstractJdbcSegmentStoreTests {

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.h2();
	}

	@Override
	protected String leafDdl(String tableName) {
		return LeafDdl.standard(tableName);
	}

	@Test
	void leafsMysqlDdlRunInH2sMysqlModeWorksUnchanged() throws SQLException {
		String url = "jdbc:h2:mem:" + TestDatabase.unique("leaf_") + ";MODE=MySQL;DB_CLOSE_DELAY=-1";
		try (Connection keepAlive = DriverManager.getConnection(url); Statement statement = keepAlive.createStatement()) {
			statement.execute(LeafDdl.mysql("leaf_alloc"));
			statement.execute("insert into leaf_alloc(biz_tag, max_id, step, description) "
					+ "values('leaf-segment-test', 1, 2000, 'Test leaf Segment Mode Get Id')");
			JdbcDataSource dataSource = new JdbcDataSource();
			dataSource.setURL(url);
			JdbcSegmentStore leafStore = new JdbcSegmentStore(dataSource);
			assertThat(leafStore.allocate("leaf-segment-test"))
				.isEqualTo(new SegmentAllocation("leaf-segment-test", 1, 2001, 2000));
			assertThat(leafStore.allocate("leaf-segment-test"))
				.isEqualTo(new SegmentAllocation("leaf-segment-test", 2001, 4001, 2000));
		}
	}

}
