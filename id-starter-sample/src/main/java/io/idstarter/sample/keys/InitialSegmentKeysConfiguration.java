package io.idstarter.sample.keys;

import java.util.Arrays;

import io.idstarter.autoconfigure.SegmentIds;
import io.idstarter.sample.IdServerProperties;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentStore;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Creates the {@code id-server.keys} in the segment store before the segment generator starts, so the generator finds
 * them in its first read of the key list.
 */
@Configuration(proxyBeanMethods = false)
public class InitialSegmentKeysConfiguration {

	/** Name of the bean that creates the keys. */
	static final String BEAN_NAME = "initialSegmentKeys";

	/**
	 * Creates the keys. Without a segment store it creates nothing: the segment generator then fails the start with
	 * the starter's report of what is missing.
	 */
	@Bean(BEAN_NAME)
	InitialSegmentKeys initialSegmentKeys(ObjectProvider<SegmentStore> stores, IdServerProperties properties) {
		SegmentStore store = stores.getIfUnique();
		if (store == null) {
			return InitialSegmentKeys.none();
		}
		if (!(store instanceof SegmentKeyAdmin admin)) {
			throw new IllegalStateException("The segment store " + store.getClass().getName()
					+ " cannot create keys (it does not implement SegmentKeyAdmin); create the keys of id-server.keys "
					+ "in the store by hand and set id-server.keys to an empty list");
		}
		return new InitialSegmentKeys(admin, properties.getKeys());
	}

	/**
	 * Makes the segment generator bean depend on {@link #initialSegmentKeys}, whatever configuration defines it.
	 * @return the post-processor
	 */
	@Bean
	static BeanFactoryPostProcessor segmentIdWorkerAfterInitialKeys() {
		return (beanFactory) -> {
			if (!beanFactory.containsBeanDefinition(SegmentIds.BEAN_NAME)) {
				return;
			}
			BeanDefinition definition = beanFactory.getBeanDefinition(SegmentIds.BEAN_NAME);
			String[] dependsOn = definition.getDependsOn();
			if (dependsOn == null) {
				definition.setDependsOn(BEAN_NAME);
			}
			else if (!Arrays.asList(dependsOn).contains(BEAN_NAME)) {
				String[] extended = Arrays.copyOf(dependsOn, dependsOn.length + 1);
				extended[dependsOn.length] = BEAN_NAME;
				definition.setDependsOn(extended);
			}
		};
	}

}
