package io.idstarter.autoconfigure.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

import javax.sql.DataSource;

import io.idstarter.autoconfigure.IdWorkerProperties;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentStore;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.store.jdbc.JdbcLeaseStore;
import io.idstarter.store.jdbc.JdbcSchema;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

class JdbcStoreConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcLeaseStoreConfiguration.class,
				JdbcSegmentStoreConfiguration.class))
		.withPropertyValues("spring.datasource.generate-unique-name=true");

	@Test
	void storesUseTheApplicationsDataSourceAndCreateTheTablesInAnEmbeddedDatabase() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(JdbcLeaseStore.class).hasSingleBean(JdbcSegmentStore.class);
			assertThat(context.getBean(JdbcSegmentStore.class).getTableName()).isEqualTo("leaf_alloc");
			assertThat(context.getBean(JdbcLeaseStore.class).getTableName()).isEqualTo("id_worker_lease");
			assertThat(tableExists(context, "leaf_alloc")).isTrue();
			assertThat(tableExists(context, "id_worker_lease")).isTrue();
		});
	}

	@Test
	void tableNamesReachTheStoresAndTheSchema() {
		this.contextRunner
			.withPropertyValues("id-worker.jdbc.segment-table=my_segments", "id-worker.jdbc.lease-table=my_leases")
			.run((context) -> {
				assertThat(context.getBean(JdbcSegmentStore.class).getTableName()).isEqualTo("my_segments");
				assertThat(context.getBean(JdbcLeaseStore.class).getTableName()).isEqualTo("my_leases");
				assertThat(tableExists(context, "my_segments")).isTrue();
				assertThat(tableExists(context, "my_leases")).isTrue();
				assertThat(tableExists(context, "leaf_alloc")).isFalse();
			});
	}

	@Test
	void schemaIsLeftAloneWhenInitializationIsNeverAndAMissingTableStopsTheStart() {
		this.contextRunner.withPropertyValues("id-worker.jdbc.initialize-schema=never").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(IdWorkerSchemaException.class)
				.hasMessageContaining("does not exist");
			IdWorkerSchemaException failure = (IdWorkerSchemaException) org.springframework.core.NestedExceptionUtils
				.getRootCause(context.getStartupFailure());
			assertThat(failure.getProblem()).isEqualTo(IdWorkerSchemaException.Problem.TABLE_MISSING);
		});
	}

	@Test
	void embeddedModeSkipsADatabaseThatIsNotEmbedded() throws SQLException {
		DataSource postgres = mock(DataSource.class);
		Connection connection = mock(Connection.class);
		DatabaseMetaData metaData = mock(DatabaseMetaData.class);
		given(postgres.getConnection()).willReturn(connection);
		given(connection.getMetaData()).willReturn(metaData);
		given(metaData.getDatabaseProductName()).willReturn("PostgreSQL");
		given(metaData.getURL()).willReturn("jdbc:postgresql://db:5432/ids");
		JdbcStoreProperties settings = new JdbcStoreProperties();
		settings.setPlatform("postgresql");
		// embedded (the default) on PostgreSQL: nothing to do, so the database is not asked for its tables.
		assertThat(new IdWorkerSchemaInitializer(postgres, settings).initializeDatabase()).isFalse();
		settings.setInitializeSchema(org.springframework.boot.sql.init.DatabaseInitializationMode.NEVER);
		assertThat(new IdWorkerSchemaInitializer(postgres, settings).initializeDatabase()).isFalse();
	}

	@Test
	void segmentStoreIsOnlyCreatedForTheJdbcSegmentStore() {
		this.contextRunner.withPropertyValues("id-worker.segment.store=redis").run((context) -> {
			assertThat(context).hasSingleBean(JdbcLeaseStore.class).doesNotHaveBean(SegmentStore.class);
		});
	}

	@Test
	void backsOffWithoutSpringBootJdbc() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(EmbeddedDatabaseConnection.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ISequenceManager.class)
				.doesNotHaveBean(SegmentStore.class));
	}

	@Test
	void backsOffWithoutADataSource() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(JdbcLeaseStoreConfiguration.class, JdbcSegmentStoreConfiguration.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ISequenceManager.class)
				.doesNotHaveBean(SegmentStore.class));
	}

	@Test
	void noTablesAreCreatedWhenTheApplicationHasItsOwnStores() {
		this.contextRunner.withPropertyValues("id-worker.jdbc.segment-table=unused_segments")
			.withBean(ISequenceManager.class, InMemoryLeaseStore::new)
			.withBean(SegmentStore.class, InMemorySegmentStore::new)
			.run((context) -> {
				assertThat(context).doesNotHaveBean(JdbcLeaseStore.class).doesNotHaveBean(JdbcSegmentStore.class);
				assertThat(tableExists(context, "unused_segments")).isFalse();
			});
	}

	@Test
	void tablesThatExistCostOneLookUpEachAtStart() {
		EmbeddedDatabase database = new EmbeddedDatabaseBuilder().generateUniqueName(true)
			.setType(EmbeddedDatabaseType.H2)
			.build();
		try {
			JdbcSchema.initialize(database);
			AtomicInteger lookUps = new AtomicInteger();
			this.contextRunner.withPropertyValues("id-worker.jdbc.initialize-schema=always")
				.withBean(DataSource.class, () -> countingTableLookUps(database, lookUps))
				.run((context) -> {
					assertThat(context).hasSingleBean(JdbcLeaseStore.class).hasSingleBean(JdbcSegmentStore.class);
					assertThat(lookUps).as("DatabaseMetaData.getTables calls: one per table").hasValue(2);
				});
		}
		finally {
			database.shutdown();
		}
	}

	/** The database, counting the calls of {@link DatabaseMetaData#getTables}. */
	private static DataSource countingTableLookUps(DataSource dataSource, AtomicInteger lookUps) {
		return proxy(DataSource.class, dataSource, (method, result) -> (method.getName().equals("getConnection"))
				? proxy(Connection.class, result, (connectionMethod, connectionResult) -> {
					if (!connectionMethod.getName().equals("getMetaData")) {
						return connectionResult;
					}
					return proxy(DatabaseMetaData.class, connectionResult, (metaMethod, metaResult) -> {
						if (metaMethod.getName().equals("getTables")) {
							lookUps.incrementAndGet();
						}
						return metaResult;
					});
				}) : result);
	}

	@SuppressWarnings("unchecked")
	private static <T> T proxy(Class<T> type, Object target, BiFunction<Method, Object, Object> onResult) {
		return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type }, (proxy, method, args) -> {
			try {
				return onResult.apply(method, method.invoke(target, args));
			}
			catch (InvocationTargetException ex) {
				throw ex.getCause();
			}
		});
	}

	private static boolean tableExists(AssertableApplicationContext context, String table) throws SQLException {
		try (Connection connection = context.getBean(DataSource.class).getConnection();
				ResultSet tables = connection.getMetaData().getTables(null, null, table.toUpperCase(), null)) {
			return tables.next();
		}
	}

}
