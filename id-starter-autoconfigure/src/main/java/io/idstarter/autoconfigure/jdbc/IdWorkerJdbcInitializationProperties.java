package io.idstarter.autoconfigure.jdbc;

/**
 * When and with which script the tables of the JDBC stores are created.
 *
 * @since 0.1.0
 * @deprecated since 0.1.0 for removal; {@code id-worker.jdbc} is bound by {@link JdbcStoreProperties}, which holds
 * the table names too
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public class IdWorkerJdbcInitializationProperties extends JdbcStoreProperties {

}
