package io.idstarter.autoconfigure;

import java.util.Arrays;
import java.util.List;

import io.idstarter.IdWorker;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Every list of modes a message shows names every mode of {@link IdWorkerMode} (or every Snowflake mode), so that a
 * mode added to the enum cannot be missing from the reports. The lists in the docs are checked by the docs-snippets
 * module.
 */
class ModeListsTests {

	private static final String[] ALL = Arrays.stream(IdWorkerMode.values()).map(Enum::name).toArray(String[]::new);

	private static final String[] SNOWFLAKE = Arrays.stream(IdWorkerMode.values())
		.filter(IdWorkerMode::isSnowflake)
		.map(Enum::name)
		.toArray(String[]::new);

	@Test
	void namesListsInDeclarationOrderWithTheLastTwoJoinedByOr() {
		assertThat(IdWorkerMode.names((mode) -> true))
			.isEqualTo("SEGMENT, DB, REDIS, MONGO, ZOOKEEPER, ETCD, KUBERNETES or HTTP");
		assertThat(IdWorkerMode.names(IdWorkerMode::isSnowflake))
			.isEqualTo("DB, REDIS, MONGO, ZOOKEEPER, ETCD, KUBERNETES or HTTP");
		assertThat(IdWorkerMode.names((mode) -> mode == IdWorkerMode.DB)).isEqualTo("DB");
		assertThat(IdWorkerMode.names((mode) -> false)).isEmpty();
	}

	@Test
	void anAnnotationWithoutModeIsToldEveryMode() {
		assertThatIllegalStateException()
			.isThrownBy(() -> IdWorkerModes.of(AnnotationMetadata.introspect(NoMode.class)))
			.withMessageContainingAll(ALL);
	}

	@Test
	void aMissingAnnotationIsToldEveryMode() {
		FailureAnalysis analysis = new MissingIdWorkerFailureAnalyzer(new DefaultListableBeanFactory(),
				new MockEnvironment())
			.analyze(new NoSuchBeanDefinitionException(IdWorker.class));
		assertThat(analysis.getAction()).contains(ALL);
	}

	@Test
	void aMissingSnowflakeGeneratorIsToldEverySnowflakeMode() {
		DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();
		RootBeanDefinition modes = new RootBeanDefinition(IdWorkerModes.class);
		modes.getConstructorArgumentValues().addIndexedArgumentValue(0, List.of(IdWorkerMode.SEGMENT));
		modes.getConstructorArgumentValues().addIndexedArgumentValue(1, "com.example.App");
		beanFactory.registerBeanDefinition(IdWorkerModesRegistrar.MODES_BEAN_NAME, modes);
		FailureAnalysis analysis = new MissingIdWorkerFailureAnalyzer(beanFactory, new MockEnvironment())
			.analyze(new NoSuchBeanDefinitionException(SnowflakeIdGenerator.class));
		assertThat(analysis.getAction()).contains(SNOWFLAKE);
	}

	@EnableIdWorker(mode = {})
	static class NoMode {

	}

}
