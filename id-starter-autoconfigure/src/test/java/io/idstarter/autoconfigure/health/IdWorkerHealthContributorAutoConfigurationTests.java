package io.idstarter.autoconfigure.health;

import io.idstarter.actuate.health.IdWorkerHealthIndicator;
import io.idstarter.testing.TestGenerators;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link IdWorkerHealthContributorAutoConfiguration}.
 */
class IdWorkerHealthContributorAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(HealthContributorAutoConfiguration.class,
					IdWorkerHealthContributorAutoConfiguration.class));

	@Test
	void indicatorIsCreatedForASnowflakeGenerator() {
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class)
			.run((context) -> assertThat(context).hasSingleBean(IdWorkerHealthIndicator.class)
				.hasBean("idWorkerHealthIndicator"));
	}

	@Test
	void indicatorIsCreatedForASegmentGenerator() {
		this.contextRunner.withUserConfiguration(TestGenerators.Segments.class).run((context) -> {
			assertThat(context).hasSingleBean(IdWorkerHealthIndicator.class);
			assertThat(context.getBean(IdWorkerHealthIndicator.class).health().getStatus()).isEqualTo(Status.UP);
		});
	}

	@Test
	void noIndicatorWithoutGenerators() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(IdWorkerHealthIndicator.class));
	}

	@Test
	void noIndicatorWhenItIsDisabled() {
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class)
			.withPropertyValues("management.health.idworker.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(IdWorkerHealthIndicator.class));
	}

	@Test
	void noIndicatorWithoutSpringBootHealth() {
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class)
			.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(IdWorkerHealthIndicator.class));
	}

	@Test
	void userIndicatorWithTheSameNameWins() {
		HealthIndicator mine = () -> Health.up().build();
		this.contextRunner.withUserConfiguration(TestGenerators.Snowflake.class)
			.withBean("idWorkerHealthIndicator", HealthIndicator.class, () -> mine)
			.run((context) -> assertThat(context).doesNotHaveBean(IdWorkerHealthIndicator.class)
				.getBean("idWorkerHealthIndicator")
				.isSameAs(mine));
	}

}
