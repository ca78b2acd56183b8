package io.idstarter.autoconfigure.endpoint;

import io.idstarter.actuate.endpoint.IdWorkerEndpoint;
import io.idstarter.testing.TestGenerators;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link IdWorkerEndpointAutoConfiguration}.
 */
class IdWorkerEndpointAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(IdWorkerEndpointAutoConfiguration.class));

	@Test
	void runWhenExposedShouldHaveEndpointBean() {
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class, TestGenerators.Segments.class)
			.withPropertyValues("management.endpoints.web.exposure.include=idworker")
			.run((context) -> {
				assertThat(context).hasSingleBean(IdWorkerEndpoint.class);
				assertThat(context.getBean(IdWorkerEndpoint.class).idWorker().modes())
					.containsExactly("SNOWFLAKE", "SEGMENT");
			});
	}

	@Test
	void runWithoutGeneratorsShouldHaveEndpointBeanWithNothingToShow() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=idworker").run((context) -> {
			IdWorkerEndpoint.IdWorkerDescriptor descriptor = context.getBean(IdWorkerEndpoint.class).idWorker();
			assertThat(descriptor.modes()).isEmpty();
			assertThat(descriptor.snowflake()).isNull();
			assertThat(descriptor.segment()).isNull();
		});
	}

	@Test
	void runWhenNotExposedShouldNotHaveEndpointBean() {
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class)
			.run((context) -> assertThat(context).doesNotHaveBean(IdWorkerEndpoint.class));
	}

	@Test
	void runWhenAccessIsNoneShouldNotHaveEndpointBean() {
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class)
			.withPropertyValues("management.endpoints.web.exposure.include=*",
					"management.endpoint.idworker.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(IdWorkerEndpoint.class));
	}

	@Test
	void runWithoutActuatorShouldNotHaveEndpointBean() {
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class)
			.withClassLoader(new FilteredClassLoader(Endpoint.class))
			.withPropertyValues("management.endpoints.web.exposure.include=idworker")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(IdWorkerEndpoint.class));
	}

}
