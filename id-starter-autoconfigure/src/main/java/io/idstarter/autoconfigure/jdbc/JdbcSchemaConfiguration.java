package io.idstarter.autoconfigure.jdbc;

import javax.sql.DataSource;

import io.idstarter.autoconfigure.IdWorkerProperties;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

/**
 * The schema initializer both JDBC stores depend on; lazy, so that it runs only when a JDBC store bean is created and
 * only once when both are.
 */
@Configuration(proxyBeanMethods = false)
class JdbcSchemaConfiguration {

	@Bean
	@Lazy
	@ConditionalOnMissingBean
	JdbcSchemaInitializer idWorkerJdbcSchemaInitializer(DataSource dataSource, IdWorkerProperties properties) {
		return new JdbcSchemaInitializer(dataSource, properties.getJdbc());
	}

}
