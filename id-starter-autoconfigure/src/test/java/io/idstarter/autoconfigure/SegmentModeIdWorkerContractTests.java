package io.idstarter.autoconfigure;

import java.util.Map;

import io.idstarter.IdWorker;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.testsupport.contract.AbstractIdWorkerContractTests;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code IdWorker} an application autowires in SEGMENT mode, on the embedded database with declared keys, passes
 * the generator contract: what the application gets, not only the core generator behind it.
 */
class SegmentModeIdWorkerContractTests extends AbstractIdWorkerContractTests {

	private ConfigurableApplicationContext context;

	@Override
	protected IdWorker createIdWorker() {
		this.context = run(SegmentApplication.class, Map.of("id-worker.segment.default-key", "contract-a",
				"id-worker.segment.keys.contract-a.step", "500", "id-worker.segment.keys.contract-b.step", "500",
				"id-worker.segment.keys.contract-b.first-id", "1000000"));
		IdWorker worker = this.context.getBean(IdWorker.class);
		assertThat(worker).isInstanceOf(SegmentIdGenerator.class);
		return worker;
	}

	@Override
	protected void closeIdWorker(IdWorker worker) {
		this.context.close();
	}

	@Override
	protected boolean keysShareOneNumberSpace() {
		return false;
	}

	static ConfigurableApplicationContext run(Class<?> application, Map<String, Object> properties) {
		SpringApplication springApplication = new SpringApplication(application);
		springApplication.setWebApplicationType(WebApplicationType.NONE);
		springApplication.setDefaultProperties(properties);
		return springApplication.run("--spring.datasource.generate-unique-name=true", "--spring.main.banner-mode=off");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, IdWorkerAutoConfiguration.class })
	@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
	static class SegmentApplication {

	}

}
