package io.idstarter.autoconfigure;

import java.util.List;

import io.idstarter.IdWorker;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.ConstructorArgumentValues.ValueHolder;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;

/**
 * Explains a missing {@link IdWorker} bean: no {@link EnableIdWorker @EnableIdWorker} turns a generator on, the
 * annotation names no mode of the type asked for, or a test slice left the generators out. Ahead of Spring Boot's
 * general analysis of a missing bean, which would only list the beans of that type.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class MissingIdWorkerFailureAnalyzer extends AbstractFailureAnalyzer<NoSuchBeanDefinitionException> {

	private final @Nullable BeanFactory beanFactory;

	private final @Nullable Environment environment;

	MissingIdWorkerFailureAnalyzer(@Nullable BeanFactory beanFactory, @Nullable Environment environment) {
		this.beanFactory = beanFactory;
		this.environment = environment;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, NoSuchBeanDefinitionException cause) {
		ResolvableType type = cause.getResolvableType();
		Class<?> required = (type != null) ? type.resolve() : null;
		if (required == null || !IdWorker.class.isAssignableFrom(required)) {
			return null;
		}
		String name = required.getSimpleName();
		String modes = modes();
		if (inTestSlice()) {
			return new FailureAnalysis("No " + name + " bean in this test slice: id-starter's generators are part of "
					+ "a slice only when it has their store (@DataJpaTest and @JdbcTest with the SEGMENT store jdbc "
					+ "or DB mode); other slices, such as @WebMvcTest, leave them out.",
					"Declare @MockitoBean " + name + " in the test class, or test with @SpringBootTest.", cause);
		}
		if (modes == null) {
			return new FailureAnalysis("No " + name + " bean: no class is annotated with @EnableIdWorker, which turns "
					+ "ID generation on.", "Add @EnableIdWorker(mode = …) to the application's main class: "
							+ "mode = " + IdWorkerMode.names((mode) -> true)
							+ " (or SEGMENT and one of the others), and the Spring Boot starter of that mode's store.",
					cause);
		}
		return new FailureAnalysis("No " + name + " bean: @EnableIdWorker turns on " + modes + ", which defines no "
				+ name + ".", "Name the mode that defines it in @EnableIdWorker(mode = …): "
						+ "SEGMENT for a SegmentIdGenerator, " + IdWorkerMode.names(IdWorkerMode::isSnowflake)
						+ " for a SnowflakeIdGenerator; or "
						+ "inject IdWorker.",
				cause);
	}

	/**
	 * Reads the modes from the bean definition: the context failed, so no bean is created to answer.
	 */
	private @Nullable String modes() {
		if (!(this.beanFactory instanceof ConfigurableListableBeanFactory factory)
				|| !factory.containsBeanDefinition(IdWorkerModesRegistrar.MODES_BEAN_NAME)) {
			return null;
		}
		ValueHolder modes = factory.getBeanDefinition(IdWorkerModesRegistrar.MODES_BEAN_NAME)
			.getConstructorArgumentValues()
			.getIndexedArgumentValue(0, List.class);
		return (modes != null) ? String.valueOf(modes.getValue()) : "its modes";
	}

	private boolean inTestSlice() {
		return this.environment != null && !this.environment
			.getProperty(EnableAutoConfiguration.ENABLED_OVERRIDE_PROPERTY, Boolean.class, true);
	}

}
