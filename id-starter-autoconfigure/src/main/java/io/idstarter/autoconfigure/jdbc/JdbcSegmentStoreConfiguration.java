package io.idstarter.autoconfigure.jdbc;

import java.util.List;

import javax.sql.DataSource;

import io.idstarter.segment.SegmentStore;
import io.idstarter.store.jdbc.JdbcSegmentStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Segments from the relational database ({@code id-worker.jdbc.segment-table}, Leaf's {@code leaf_alloc} layout);
 * selected by {@code @EnableIdWorker(mode = SEGMENT)} unless {@code id-worker.segment.store} names another store.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass({ DataSource.class, EmbeddedDatabaseConnection.class })
@ConditionalOnProperty(name = "id-worker.segment.store", havingValue = "jdbc", matchIfMissing = true)
@ConditionalOnSingleCandidate(DataSource.class)
@EnableConfigurationProperties(JdbcStoreProperties.class)
@Import(JdbcSchemaConfiguration.class)
public final class JdbcSegmentStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(SegmentStore.class)
	@DependsOnDatabaseInitialization
	JdbcSegmentStore jdbcSegmentStore(DataSource dataSource, JdbcStoreProperties properties,
			IdWorkerSchemaInitializer schemaInitializer) {
		String table = properties.getSegmentTable();
		String script = JdbcStoreProperties.SCRIPTS;
		if (!schemaInitializer.missingTables(List.of(table)).isEmpty()) {
			throw IdWorkerSchemaException.tableMissing(table, script);
		}
		return new JdbcSegmentStore(dataSource, table);
	}

}
