package io.idstarter.autoconfigure.jdbc;

import javax.sql.DataSource;

import io.idstarter.autoconfigure.IdWorkerProperties;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

/**
 * The schema initializer both JDBC stores depend on; lazy, so that it runs only when a JDBC store bean is created and
 * only once when both are.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IdWorkerJdbcInitializationProperties.class)
class JdbcSchemaConfiguration {

	@Bean
	@Lazy
	@ConditionalOnMissingBean
	IdWorkerSchemaInitializer idWorkerSchemaInitializer(DataSource dataSource,
			IdWorkerJdbcInitializationProperties initialization, IdWorkerProperties properties) {
		try {
			return new IdWorkerSchemaInitializer(dataSource, initialization, properties.getJdbc());
		}
		catch (IdWorkerSchemaException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			// Resolving the script's platform asks the database which one it is.
			throw IdWorkerSchemaException.of(
					java.util.List.of(properties.getJdbc().getSegmentTable(), properties.getJdbc().getLeaseTable()),
					IdWorkerJdbcInitializationProperties.SCRIPTS, "check", ex);
		}
	}

}
