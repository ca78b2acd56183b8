package io.idstarter.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.idstarter.IdWorker;

import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Registers the {@link IdWorkerModes} of the {@link EnableIdWorker @EnableIdWorker} class and, when segment and
 * Snowflake IDs are both on, makes the first mode's generator the primary {@link IdWorker}.
 */
class IdWorkerModesRegistrar implements ImportBeanDefinitionRegistrar {

	/** Name of the {@link IdWorkerModes} bean. */
	static final String MODES_BEAN_NAME = "idWorkerModes";

	private static final String PRIMARY_POST_PROCESSOR_BEAN_NAME = IdWorkerModesRegistrar.class.getName()
			+ ".primaryIdWorkerPostProcessor";

	@Override
	public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
		List<AnnotationMetadata> annotatedClasses = annotatedClasses(registry);
		List<String> annotated = annotatedClasses.stream().map(AnnotationMetadata::getClassName).toList();
		// Imported by IdWorkerSliceAutoConfiguration in a test slice: the modes are those of the application class.
		AnnotationMetadata source = (!metadata.isAnnotated(EnableIdWorker.class.getName())
				&& annotatedClasses.size() == 1) ? annotatedClasses.get(0) : metadata;
		IdWorkerModes modes = IdWorkerModes.of(source);
		if (annotated.size() > 1 || registry.containsBeanDefinition(MODES_BEAN_NAME)) {
			throw new IllegalStateException("@EnableIdWorker is on more than one class " + annotated
					+ ": put it once, on the application's main class, with all the modes it needs");
		}
		// Constructor arguments, not instance suppliers: ahead-of-time processing writes them out as code.
		RootBeanDefinition definition = new RootBeanDefinition(IdWorkerModes.class);
		definition.getConstructorArgumentValues().addIndexedArgumentValue(0, modes.modes());
		definition.getConstructorArgumentValues().addIndexedArgumentValue(1, modes.source());
		definition.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
		registry.registerBeanDefinition(MODES_BEAN_NAME, definition);
		if (modes.segment() && modes.snowflake() != null) {
			String primary = (modes.primary() == IdWorkerMode.SEGMENT) ? SegmentIds.BEAN_NAME : SnowflakeIds.BEAN_NAME;
			RootBeanDefinition postProcessor = new RootBeanDefinition(PrimaryIdWorkerPostProcessor.class);
			postProcessor.getConstructorArgumentValues().addIndexedArgumentValue(0, primary);
			postProcessor.setRole(BeanDefinition.ROLE_INFRASTRUCTURE);
			registry.registerBeanDefinition(PRIMARY_POST_PROCESSOR_BEAN_NAME, postProcessor);
		}
	}

	/**
	 * Finds the configuration classes annotated with {@code @EnableIdWorker} from their metadata, without creating or
	 * typing any bean. Their selectors share the auto-configuration group, which imports this registrar once, for the
	 * first of them: the others would be ignored silently.
	 */
	static List<AnnotationMetadata> annotatedClasses(BeanDefinitionRegistry registry) {
		Map<String, AnnotationMetadata> annotated = new LinkedHashMap<>();
		for (String name : registry.getBeanDefinitionNames()) {
			// A @Bean method's definition carries its declaring class's metadata: not another annotated class.
			if (registry.getBeanDefinition(name) instanceof AnnotatedBeanDefinition definition
					&& definition.getFactoryMethodMetadata() == null
					&& definition.getMetadata().isAnnotated(EnableIdWorker.class.getName())) {
				annotated.putIfAbsent(definition.getMetadata().getClassName(), definition.getMetadata());
			}
		}
		return new ArrayList<>(annotated.values());
	}

	/**
	 * Marks one generator bean primary, unless the application replaced it or already has a primary
	 * {@link IdWorker}. Runs once every bean definition is known, which is after the generator configurations, since
	 * they are processed late, like auto-configurations.
	 */
	static final class PrimaryIdWorkerPostProcessor implements BeanFactoryPostProcessor {

		private final String beanName;

		PrimaryIdWorkerPostProcessor(String beanName) {
			this.beanName = beanName;
		}

		@Override
		public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
			if (!beanFactory.containsBeanDefinition(this.beanName)) {
				return;
			}
			for (String name : beanFactory.getBeanNamesForType(IdWorker.class, true, false)) {
				if (beanFactory.containsBeanDefinition(name) && beanFactory.getBeanDefinition(name).isPrimary()) {
					return;
				}
			}
			beanFactory.getBeanDefinition(this.beanName).setPrimary(true);
		}

	}

}
