package io.idstarter.autoconfigure.jdbc;

import java.util.List;

import javax.sql.DataSource;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.store.jdbc.JdbcLeaseStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Worker-ID leases in the relational database ({@code id-worker.jdbc.lease-table}); selected by
 * {@code @EnableIdWorker(mode = DB)}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass({ DataSource.class, EmbeddedDatabaseConnection.class })
@ConditionalOnSingleCandidate(DataSource.class)
@EnableConfigurationProperties(JdbcStoreProperties.class)
@Import(JdbcSchemaConfiguration.class)
public final class JdbcLeaseStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(ISequenceManager.class)
	@DependsOnDatabaseInitialization
	JdbcLeaseStore jdbcLeaseStore(DataSource dataSource, JdbcStoreProperties properties,
			IdWorkerSchemaInitializer schemaInitializer) {
		String table = properties.getLeaseTable();
		String script = JdbcStoreProperties.SCRIPTS;
		if (!schemaInitializer.missingTables(List.of(table)).isEmpty()) {
			throw IdWorkerSchemaException.tableMissing(table, script);
		}
		return new JdbcLeaseStore(dataSource, table);
	}

}
