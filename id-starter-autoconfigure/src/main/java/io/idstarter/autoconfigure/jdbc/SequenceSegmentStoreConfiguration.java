package io.idstarter.autoconfigure.jdbc;

import javax.sql.DataSource;

import io.idstarter.segment.SegmentStore;
import io.idstarter.store.jdbc.JdbcSequenceSegmentStore;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;

/**
 * Segments from the database's own sequences; selected by {@code id-worker.segment.store=sequence}. Declared keys
 * ({@code id-worker.segment.keys.*}) create their sequences; sequences made by Flyway, Liquibase or a DBA are used as
 * they are.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass({ DataSource.class, EmbeddedDatabaseConnection.class })
@ConditionalOnProperty(name = "id-worker.segment.store", havingValue = "sequence")
@ConditionalOnSingleCandidate(DataSource.class)
@EnableConfigurationProperties(SequenceStoreProperties.class)
public final class SequenceSegmentStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(SegmentStore.class)
	@DependsOnDatabaseInitialization
	JdbcSequenceSegmentStore jdbcSequenceSegmentStore(DataSource dataSource, SequenceStoreProperties properties) {
		return new JdbcSequenceSegmentStore(dataSource, properties.getPrefix(), properties.getSequences());
	}

}
