package io.idstarter.store.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import io.idstarter.segment.SegmentAllocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link JdbcSequenceSegmentStore} on a real Postgres server.
 */
class JdbcSequenceSegmentStorePostgresIntegrationTests extends AbstractJdbcSequenceSegmentStoreTests {

	/** Statement executions and transaction calls, the JDBC calls that each take a round trip to PostgreSQL. */
	private static final Set<String> SERVER_CALLS = Set.of("execute", "executeQuery", "executeUpdate", "executeBatch",
			"commit", "rollback", "getTransactionIsolation", "setTransactionIsolation");

	@Override
	protected TestDatabase openDatabase() {
		return TestDatabase.postgres();
	}

	@Test
	void aStepChangedWhileAnotherSessionHoldsCachedValuesOverlapsNoRange() {
		// With CACHE 5, a session keeps values computed with the old increment. ALTER SEQUENCE ... INCREMENT BY
		// rewrites the sequence (PostgreSQL 10 and later), and a session drops its cached values when it sees that, so
		// its next value is the last one plus the new step, not a cached one whose range would overlap.
		String key = newKey();
		this.store.createKey(key, 1, 10, "");
		String sequence = this.store.sequenceName(key);
		this.database.execute("ALTER SEQUENCE " + sequence + " CACHE 5");
		JdbcSequenceSegmentStore session = new JdbcSequenceSegmentStore(this.database.singleConnection(), "",
				Map.of(key, sequence));
		List<SegmentAllocation> ranges = new ArrayList<>();
		ranges.add(session.allocate(key));
		ranges.add(session.allocate(key));
		ranges.add(this.store.allocate(key));
		this.store.updateStep(key, 100);
		ranges.add(session.allocate(key));
		ranges.add(this.store.allocate(key));
		ranges.add(session.allocate(key));
		assertThat(ranges.get(3).size()).isEqualTo(100);
		ranges.sort(Comparator.comparingLong(SegmentAllocation::start));
		for (int i = 1; i < ranges.size(); i++) {
			assertThat(ranges.get(i).start()).as("%s overlaps none of %s", ranges.get(i), ranges)
				.isGreaterThanOrEqualTo(ranges.get(i - 1).end());
		}
	}


	@Test
	void anAllocationTakesTwoRoundTripsAndLeavesTheConnectionsLevelAlone() {
		// A 50-step sequence at 50,000 inserts a second is allocated from a thousand times a second, and a caller that
		// uses up a range before the next arrives waits for this call: BEGIN, the level, nextval and the catalog read
		// go in one round trip, the commit in a second, and the connection's level is neither read nor changed.
		String key = newKey();
		this.store.createKey(key, 1, 50, "");
		List<String> calls = new CopyOnWriteArrayList<>();
		JdbcSequenceSegmentStore node = new JdbcSequenceSegmentStore(recording(this.database.dataSource(), calls), "",
				Map.of(key, this.store.sequenceName(key)));
		assertThat(node.allocate(key)).isEqualTo(new SegmentAllocation(key, 1, 51, 50));
		calls.clear();
		assertThat(node.allocate(key)).isEqualTo(new SegmentAllocation(key, 51, 101, 50));
		assertThat(calls).as("calls that go to the server").containsExactly("execute", "commit");
	}

	@Test
	void aPoolAtRepeatableReadReadsTheStepNextvalUsedWhenTheStepShrinksMeanwhile() throws Exception {
		// At REPEATABLE READ the catalog read would see the snapshot taken before nextval waited for ALTER SEQUENCE's
		// lock: the old step of 100, a range of 100 below 110, overlapping [1, 101).
		String key = newKey();
		this.store.createKey(key, 1, 100, "");
		String sequence = this.store.sequenceName(key);
		assertThat(this.store.allocate(key)).isEqualTo(new SegmentAllocation(key, 1, 101, 100));
		JdbcSequenceSegmentStore node = new JdbcSequenceSegmentStore(
				this.database.atIsolation("TRANSACTION_REPEATABLE_READ"), "", Map.of(key, sequence));
		try (Connection alter = this.database.dataSource().getConnection()) {
			alter.setAutoCommit(false);
			try (Statement statement = alter.createStatement()) {
				statement.execute("ALTER SEQUENCE " + sequence + " INCREMENT BY 10");
			}
			CompletableFuture<SegmentAllocation> allocation = CompletableFuture.supplyAsync(() -> node.allocate(key));
			await().atMost(Duration.ofSeconds(5)).until(() -> waitsForLock(sequence));
			alter.commit();
			assertThat(allocation.get(5, TimeUnit.SECONDS)).isEqualTo(new SegmentAllocation(key, 101, 111, 10));
		}
	}

	private boolean waitsForLock(String sequence) throws SQLException {
		try (Connection connection = this.database.dataSource().getConnection();
				PreparedStatement select = connection
					.prepareStatement("SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = to_regclass(?)")) {
			select.setString(1, sequence);
			try (ResultSet row = select.executeQuery()) {
				row.next();
				return row.getLong(1) > 0;
			}
		}
	}

	/** Returns the data source with every call of {@link #SERVER_CALLS} on its connections and statements recorded. */
	private static DataSource recording(DataSource dataSource, List<String> calls) {
		return proxy(DataSource.class, dataSource, calls);
	}

	@SuppressWarnings("unchecked")
	private static <T> T proxy(Class<T> type, T target, List<String> calls) {
		return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (proxy, method, args) -> {
			if (SERVER_CALLS.contains(method.getName())) {
				calls.add(method.getName());
			}
			Object result;
			try {
				result = method.invoke(target, args);
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
			Class<?> returned = method.getReturnType();
			if (returned == Connection.class || returned == Statement.class || returned == PreparedStatement.class) {
				return proxy((Class<Object>) returned, result, calls);
			}
			return result;
		});
	}

}
