package io.idstarter.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.idstarter.testsupport.TcpProxy;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.JdbcBackend;
import org.h2.tools.Server;
import org.jspecify.annotations.Nullable;

/**
 * A database the JDBC store tests run against, with a HikariCP pool, unique names for tables and keys, and a way to
 * reach it through a {@link TcpProxy} that can be cut.
 */
final class TestDatabase implements AutoCloseable {

	private static final Pattern HOST_AND_PORT = Pattern.compile("//([^/:]+):(\\d+)");

	private final String name;

	private final String jdbcUrl;

	private final @Nullable String username;

	private final @Nullable String password;

	private final JdbcDialect dialect;

	private final @Nullable Server h2Server;

	private final @Nullable String h2Database;

	private final List<HikariDataSource> pools = new ArrayList<>();

	private final HikariDataSource dataSource;

	private TestDatabase(String name, String jdbcUrl, @Nullable String username, @Nullable String password,
			JdbcDialect dialect, @Nullable Server h2Server, @Nullable String h2Database) {
		this.name = name;
		this.jdbcUrl = jdbcUrl;
		this.username = username;
		this.password = password;
		this.dialect = dialect;
		this.h2Server = h2Server;
		this.h2Database = h2Database;
		this.dataSource = pool(jdbcUrl, 12, 10_000);
	}

	/**
	 * An in-memory H2 database of its own, also served over TCP so that a proxy can cut it.
	 */
	static TestDatabase h2() {
		String database = "idstarter_" + suffix();
		try {
			Server server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
			return new TestDatabase("H2", "jdbc:h2:mem:" + database + ";DB_CLOSE_DELAY=-1", null, null, JdbcDialect.H2,
					server, database);
		}
		catch (SQLException ex) {
			throw new IllegalStateException("cannot start the H2 TCP server", ex);
		}
	}

	static TestDatabase postgres() {
		JdbcBackend backend = TestBackends.postgres();
		return new TestDatabase("PostgreSQL (" + backend.origin() + ")", backend.jdbcUrl(), backend.username(),
				backend.password(), JdbcDialect.POSTGRESQL, null, null);
	}

	static TestDatabase mariadb() {
		JdbcBackend backend = TestBackends.mariadb();
		return new TestDatabase("MariaDB (" + backend.origin() + ")", backend.jdbcUrl(), backend.username(),
				backend.password(), JdbcDialect.MYSQL, null, null);
	}

	String name() {
		return this.name;
	}

	JdbcDialect dialect() {
		return this.dialect;
	}

	/**
	 * The shared pool (12 connections).
	 */
	DataSource dataSource() {
		return this.dataSource;
	}

	/**
	 * A pool of one connection, as a node whose session keeps what the server caches for it.
	 */
	DataSource singleConnection() {
		return pool(this.jdbcUrl, 1, 5000);
	}

	/**
	 * A pool of two connections whose transactions run at another level than the database's default unless they set
	 * their own.
	 * @param isolation HikariCP's name of the level, such as {@code TRANSACTION_REPEATABLE_READ}
	 */
	DataSource atIsolation(String isolation) {
		return pool(this.jdbcUrl, 2, 5000, isolation);
	}

	/**
	 * Starts a proxy in front of the database.
	 */
	TcpProxy startProxy() {
		if (this.h2Server != null) {
			return TcpProxy.start("127.0.0.1", this.h2Server.getPort());
		}
		Matcher matcher = HOST_AND_PORT.matcher(this.jdbcUrl);
		if (!matcher.find()) {
			throw new IllegalStateException("no host:port in " + this.jdbcUrl);
		}
		return TcpProxy.start(matcher.group(1), Integer.parseInt(matcher.group(2)));
	}

	/**
	 * A small pool that connects through the proxy and gives up on a connection after one second.
	 */
	DataSource dataSourceThrough(TcpProxy proxy) {
		String url;
		if (this.h2Server != null) {
			url = "jdbc:h2:tcp://127.0.0.1:" + proxy.port() + "/mem:" + this.h2Database;
		}
		else {
			url = HOST_AND_PORT.matcher(this.jdbcUrl).replaceFirst("//127.0.0.1:" + proxy.port());
		}
		return pool(url, 2, 1000);
	}

	private HikariDataSource pool(String url, int size, long connectionTimeout) {
		return pool(url, size, connectionTimeout, null);
	}

	private HikariDataSource pool(String url, int size, long connectionTimeout, @Nullable String isolation) {
		HikariConfig config = new HikariConfig();
		config.setTransactionIsolation(isolation);
		config.setJdbcUrl(url);
		if (this.username != null) {
			config.setUsername(this.username);
			config.setPassword(this.password);
		}
		config.setMaximumPoolSize(size);
		config.setMinimumIdle(0);
		config.setConnectionTimeout(connectionTimeout);
		config.setValidationTimeout(500);
		// Start without a connection, so that a pool can be made for a server that is down.
		config.setInitializationFailTimeout(-1);
		config.setPoolName("test-" + suffix());
		HikariDataSource pool = new HikariDataSource(config);
		this.pools.add(pool);
		return pool;
	}

	/**
	 * A lower-case name no other test uses.
	 */
	static String unique(String prefix) {
		return prefix + suffix();
	}

	private static String suffix() {
		return UUID.randomUUID().toString().replace("-", "").substring(0, 10).toLowerCase(Locale.ROOT);
	}

	void execute(String... statements) {
		try (Connection connection = this.dataSource.getConnection();
				Statement statement = connection.createStatement()) {
			for (String sql : statements) {
				statement.execute(sql);
			}
		}
		catch (SQLException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Drops tables this test created.
	 */
	void dropTables(String... tables) {
		for (String table : tables) {
			execute("DROP TABLE IF EXISTS " + table);
		}
	}

	@Override
	public void close() {
		this.pools.forEach(HikariDataSource::close);
		if (this.h2Server != null) {
			this.h2Server.stop();
		}
	}

	@Override
	public String toString() {
		return this.name;
	}

}
