package io.idstarter.autoconfigure.jdbc;

import javax.sql.DataSource;


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
@EnableConfigurationProperties(JdbcStoreProperties.class)
class JdbcSchemaConfiguration {

	@Bean
	@Lazy
	@ConditionalOnMissingBean
	IdWorkerSchemaInitializer idWorkerSchemaInitializer(DataSource dataSource,
			JdbcStoreProperties properties) {
		try {
			return new IdWorkerSchemaInitializer(dataSource, properties);
		}
		catch (IdWorkerSchemaException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			// Resolving the script's platform asks the database which one it is.
			throw IdWorkerSchemaException.of(
					java.util.List.of(properties.getSegmentTable(), properties.getLeaseTable()),
					JdbcStoreProperties.SCRIPTS, "check", ex);
		}
	}

}
