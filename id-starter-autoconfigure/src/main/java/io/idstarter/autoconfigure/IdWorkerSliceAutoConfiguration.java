package io.idstarter.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.EnvironmentAware;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The generators of the application's {@link EnableIdWorker @EnableIdWorker} modes in the test slices that have a
 * {@code DataSource} ({@code @DataJpaTest}, {@code @JdbcTest} and the others that import
 * {@code @AutoConfigureJdbc}), when every mode keeps its data there ({@code SEGMENT} with the {@code jdbc} store,
 * {@code DB}), so that entities whose IDs come from id-starter can be saved in those tests. Listed in that slice's
 * imports file, never among the application's auto-configurations. Other slices, such as {@code @WebMvcTest}, and
 * modes whose store the slice lacks, have no generator: mock {@code IdWorker} there when it is needed.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@Import(IdWorkerSliceAutoConfiguration.ModesSelector.class)
public final class IdWorkerSliceAutoConfiguration {

	/**
	 * Returns whether this node's local files ({@code id-worker.lease.cache-file},
	 * {@code id-worker.segment.marks-file}) are used: always in an application, in a test slice only with
	 * {@code id-worker.testing.node-files-in-slices}, because a slice's embedded database starts empty on every run
	 * while the files remain, and the marks of the last run would refuse the new database as one that lost writes.
	 * @param properties the settings
	 * @param environment the environment, which tells a slice (auto-configuration off) from an application
	 * @return whether to use the files that are configured
	 */
	static boolean usesNodeFiles(IdWorkerProperties properties, Environment environment) {
		boolean inSlice = !environment.getProperty(EnableAutoConfiguration.ENABLED_OVERRIDE_PROPERTY, Boolean.class,
				true);
		return !inSlice || properties.getTesting().isNodeFilesInSlices();
	}

	/**
	 * Selects what {@link IdWorkerConfigurationSelector} selects outside slices, for the {@code @EnableIdWorker}
	 * class found among the bean definitions; nothing when there is none, or when auto-configuration is on (then
	 * the annotation has selected it already).
	 */
	static class ModesSelector implements ImportSelector, BeanFactoryAware, EnvironmentAware {

		private @Nullable BeanFactory beanFactory;

		private @Nullable Environment environment;

		@Override
		public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
			this.beanFactory = beanFactory;
		}

		@Override
		public void setEnvironment(Environment environment) {
			this.environment = environment;
		}

		@Override
		public String[] selectImports(AnnotationMetadata importingClassMetadata) {
			Environment environment = this.environment;
			if (environment == null
					|| environment.getProperty(EnableAutoConfiguration.ENABLED_OVERRIDE_PROPERTY, Boolean.class, true)
					|| !(this.beanFactory instanceof BeanDefinitionRegistry registry)) {
				return new String[0];
			}
			List<AnnotationMetadata> annotated = IdWorkerModesRegistrar.annotatedClasses(registry);
			if (annotated.size() != 1 || !jdbcOnly(IdWorkerModes.of(annotated.get(0)), environment)) {
				return new String[0];
			}
			return IdWorkerConfigurationSelector.configurations(annotated.get(0), environment).toArray(String[]::new);
		}

		private static boolean jdbcOnly(IdWorkerModes modes, Environment environment) {
			String segmentStore = environment.getProperty("id-worker.segment.store", "jdbc");
			return modes.modes()
				.stream()
				.allMatch((mode) -> (mode == IdWorkerMode.SEGMENT) ? "jdbc".equalsIgnoreCase(segmentStore)
						: mode.store() == IdWorkerStore.JDBC.descriptor());
		}

	}

}
