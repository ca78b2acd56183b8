package io.idstarter.store.jdbc;

import javax.sql.DataSource;

/**
 * The former name of {@link JdbcLeaseStore}.
 *
 * @deprecated lease stores are named {@code *LeaseStore} so that they read apart from the sequences of
 * {@code io.idstarter.sequence}; use {@link JdbcLeaseStore}, which takes the same arguments
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public class JdbcSequenceManager extends JdbcLeaseStore {

	public JdbcSequenceManager(DataSource dataSource) {
		super(dataSource);
	}

	public JdbcSequenceManager(DataSource dataSource, String tableName) {
		super(dataSource, tableName);
	}

}
