package io.idstarter.autoconfigure;

import java.util.List;

import io.idstarter.IdWorker;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The analysis of a missing {@code IdWorker} bean says to add {@code @EnableIdWorker(mode = …)}, or, in a test slice,
 * to mock it; other missing beans keep Spring Boot's analysis.
 */
class MissingIdWorkerFailureAnalyzerTests {

	private final DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();

	private final MockEnvironment environment = new MockEnvironment();

	private final MissingIdWorkerFailureAnalyzer analyzer = new MissingIdWorkerFailureAnalyzer(this.beanFactory,
			this.environment);

	@Test
	void withoutTheAnnotationSaysToAddIt() {
		FailureAnalysis analysis = this.analyzer.analyze(new NoSuchBeanDefinitionException(IdWorker.class));
		assertThat(analysis.getDescription()).contains("No IdWorker bean", "no class is annotated with @EnableIdWorker");
		assertThat(analysis.getAction()).contains("Add @EnableIdWorker(mode = …) to the application's main class");
	}

	@Test
	void inATestSliceSaysToMockIt() {
		this.environment.setProperty("spring.boot.enableautoconfiguration", "false");
		FailureAnalysis analysis = this.analyzer.analyze(new NoSuchBeanDefinitionException(IdWorker.class));
		assertThat(analysis.getDescription()).contains("test slice", "@WebMvcTest");
		assertThat(analysis.getAction()).contains("@MockitoBean IdWorker");
	}

	@Test
	void withAModeThatDefinesNoSuchGeneratorNamesTheModes() {
		RootBeanDefinition modes = new RootBeanDefinition(IdWorkerModes.class);
		modes.getConstructorArgumentValues().addIndexedArgumentValue(0, List.of(IdWorkerMode.SEGMENT));
		modes.getConstructorArgumentValues().addIndexedArgumentValue(1, "com.example.App");
		this.beanFactory.registerBeanDefinition(IdWorkerModesRegistrar.MODES_BEAN_NAME, modes);
		FailureAnalysis analysis = this.analyzer
			.analyze(new NoSuchBeanDefinitionException(SnowflakeIdGenerator.class));
		assertThat(analysis.getDescription()).contains("No SnowflakeIdGenerator bean", "[SEGMENT]");
		assertThat(analysis.getAction())
			.contains("DB, REDIS, MONGO, ZOOKEEPER, ETCD, KUBERNETES or HTTP for a SnowflakeIdGenerator");
	}

	@Test
	void otherMissingBeansAreLeftToSpringBoot() {
		assertThat(this.analyzer.analyze(new NoSuchBeanDefinitionException(String.class))).isNull();
	}

}
