package io.idstarter.hibernate;

import java.lang.reflect.Member;
import java.util.EnumSet;

import io.idstarter.segment.PeriodicNumbers;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Hibernate generator behind {@link PeriodicGeneratedId}: takes formatted numbers of one periodic key from the
 * {@link PeriodicNumbers} bean. Reaches the bean the way {@link IdWorkerIdentifierGenerator} does: Spring's bean
 * container creates it, so it is {@link BeanFactoryAware}; the bean is looked up on first use.
 *
 * @since 0.1.0
 */
public class PeriodicIdentifierGenerator
		implements BeforeExecutionGenerator, BeanFactoryAware, AnnotationBasedGenerator<PeriodicGeneratedId> {

	private static final long serialVersionUID = 1L;

	private transient @Nullable BeanFactory beanFactory;

	/** The numbers, looked up on first use; the bean is a singleton, so a racing second lookup finds the same. */
	private transient volatile @Nullable PeriodicNumbers numbers;

	private String key = "";

	private String attribute = "?";

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * Hibernate 7.2 (Spring Boot 4.0) calls only this form; later versions call the one without the member, which
	 * this form passes on to.
	 */
	@Override
	@SuppressWarnings("removal")
	public void initialize(PeriodicGeneratedId annotation, Member member, GeneratorCreationContext context) {
		initialize(annotation, context);
	}

	/**
	 * Initializes the generator. Overrides Hibernate's method of this signature since 7.3; no {@code @Override}, so
	 * that it compiles against Hibernate 7.2 too.
	 * @param annotation the annotation on the ID attribute
	 * @param context what Hibernate knows of the attribute
	 */
	public void initialize(PeriodicGeneratedId annotation, GeneratorCreationContext context) {
		this.attribute = context.getPersistentClass().getEntityName() + "." + context.getProperty().getName();
		this.key = annotation.key();
		Class<?> type = context.getType().getReturnedClass();
		if (type != String.class) {
			throw new IllegalStateException("@PeriodicGeneratedId on " + this.attribute + " needs a String "
					+ "identifier, found " + type.getName() + ": periodic numbers are formatted strings");
		}
		if (this.beanFactory instanceof ListableBeanFactory beans
				&& beans.getBeanNamesForType(PeriodicNumbers.class, true, false).length == 0) {
			throw new IllegalStateException("@PeriodicGeneratedId on " + this.attribute + " needs a PeriodicNumbers "
					+ "bean, and the application defines none: enable segment mode (@EnableIdWorker(mode = SEGMENT))");
		}
	}

	@Override
	public EnumSet<EventType> getEventTypes() {
		return EventTypeSets.INSERT_ONLY;
	}

	@Override
	public boolean allowAssignedIdentifiers() {
		return true;
	}

	@Override
	public Object generate(SharedSessionContractImplementor session, Object owner, @Nullable Object currentValue,
			EventType eventType) {
		if (currentValue instanceof String assigned && !assigned.isEmpty()) {
			return assigned;
		}
		return numbers().next(this.key);
	}

	private PeriodicNumbers numbers() {
		PeriodicNumbers numbers = this.numbers;
		if (numbers == null) {
			BeanFactory beans = this.beanFactory;
			if (beans == null) {
				throw new IllegalStateException("The ID generator of " + this.attribute + " was created by Hibernate "
						+ "without Spring's bean container, so it cannot reach the PeriodicNumbers bean: bootstrap "
						+ "Hibernate through Spring (Spring Boot's JPA auto-configuration or "
						+ "HibernateJpaVendorAdapter)");
			}
			numbers = beans.getBean(PeriodicNumbers.class);
			this.numbers = numbers;
		}
		return numbers;
	}

}
