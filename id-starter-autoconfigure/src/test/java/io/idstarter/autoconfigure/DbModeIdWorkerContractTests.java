package io.idstarter.autoconfigure;

import java.util.Map;

import io.idstarter.IdWorker;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.testsupport.contract.AbstractIdWorkerContractTests;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code IdWorker} an application autowires in DB mode (Snowflake, the worker ID leased from the embedded
 * database) passes the generator contract.
 */
class DbModeIdWorkerContractTests extends AbstractIdWorkerContractTests {

	private ConfigurableApplicationContext context;

	@Override
	protected IdWorker createIdWorker() {
		this.context = SegmentModeIdWorkerContractTests.run(DbApplication.class, Map.of());
		assertThat(this.context.getBean(SnowflakeIdGenerator.class).workerId()).isPresent();
		return this.context.getBean(IdWorker.class);
	}

	@Override
	protected void closeIdWorker(IdWorker worker) {
		this.context.close();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, IdWorkerAutoConfiguration.class })
	@EnableIdWorker(mode = IdWorkerMode.DB)
	static class DbApplication {

	}

}
