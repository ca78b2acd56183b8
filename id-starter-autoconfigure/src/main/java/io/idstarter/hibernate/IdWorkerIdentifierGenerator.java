package io.idstarter.hibernate;

import java.util.EnumSet;

import io.idstarter.IdWorker;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;

/**
 * Base of the Hibernate generators that take entity identifiers from an {@link IdWorker} bean.
 *
 * @since 0.1.0
 */
public abstract class IdWorkerIdentifierGenerator implements BeforeExecutionGenerator, BeanFactoryAware {

	/*
	 * How the generator reaches the Spring bean. Hibernate instantiates the generators named by @IdGeneratorType
	 * itself, but asks its bean container first when one is configured: GeneratorBinder gets the generator class
	 * from the BeanContainer (JPA-compliant creation, no caching) and only falls back to reflective instantiation
	 * when the container fails. Spring's HibernateJpaVendorAdapter (which Spring Boot's JPA auto-configuration
	 * uses) configures SpringBeanContainer, whose JPA-compliant creation is
	 * AutowireCapableBeanFactory.createBean(Class): a full Spring instantiation, so BeanFactoryAware is honoured.
	 * Hibernate then calls initialize(annotation, context) on that instance as it would on its own.
	 *
	 * That is preferred to a static holder set by an auto-configuration: it works with several application
	 * contexts in one JVM (tests, parent/child contexts), needs no ordering between the holder and the entity
	 * manager factory, and leaves nothing behind after the context closes. The worker itself is looked up on first
	 * use, not at creation, so building the entity manager factory does not start the ID generators (and cannot
	 * form a cycle with them). Without Spring's bean container the beanFactory stays null and generate() fails with
	 * a message that says so.
	 */

	private static final long serialVersionUID = 1L;

	private transient @Nullable BeanFactory beanFactory;

	/** The worker, looked up on first use; the bean is a singleton, so a racing second lookup finds the same one. */
	private transient volatile @Nullable IdWorker worker;

	private String attribute = "?";

	private boolean stringIdentifier;

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	/**
	 * Records where the generator is used and checks the identifier type; called from the subclasses'
	 * {@code initialize}.
	 * @param annotation the name of the annotation, for messages
	 * @param context the Hibernate context
	 */
	protected void initialize(String annotation, GeneratorCreationContext context) {
		this.attribute = context.getPersistentClass().getEntityName() + "." + context.getProperty().getName();
		Class<?> type = context.getType().getReturnedClass();
		if (type != Long.class && type != long.class && type != String.class) {
			throw new IllegalStateException("@" + annotation + " on " + this.attribute + " needs a long, Long or String "
					+ "identifier, found " + type.getName() + ": IDs are 64-bit and do not fit smaller types");
		}
		this.stringIdentifier = (type == String.class);
		requireWorkerDefined(annotation);
	}

	/**
	 * Fails while the mappings are read, rather than at the first insert, when the application defines no generator
	 * of the type this annotation needs. Reads bean definitions only: no generator is created here.
	 */
	private void requireWorkerDefined(String annotation) {
		if (this.beanFactory instanceof ListableBeanFactory beans
				&& beans.getBeanNamesForType(workerType(), true, false).length == 0) {
			throw new IllegalStateException("@" + annotation + " on " + this.attribute + " needs a "
					+ workerType().getSimpleName() + " bean, and the application defines none: " + missingWorkerHint());
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
		if (isAssigned(currentValue)) {
			return currentValue;
		}
		long id = nextId(worker());
		return this.stringIdentifier ? Long.toString(id) : id;
	}

	private static boolean isAssigned(@Nullable Object value) {
		if (value instanceof Number number) {
			return number.longValue() != 0;
		}
		return (value instanceof String string) ? !string.isEmpty() : value != null;
	}

	private IdWorker worker() {
		IdWorker worker = this.worker;
		if (worker == null) {
			worker = lookUp();
			this.worker = worker;
		}
		return worker;
	}

	private IdWorker lookUp() {
		BeanFactory beanFactory = this.beanFactory;
		if (beanFactory == null) {
			throw new IllegalStateException("The ID generator of " + this.attribute + " was created by Hibernate "
					+ "without Spring's bean container, so it cannot reach the " + workerType().getSimpleName()
					+ " bean: bootstrap Hibernate through Spring (Spring Boot's JPA auto-configuration or "
					+ "HibernateJpaVendorAdapter), or set hibernate.resource.beans.container to a SpringBeanContainer");
		}
		IdWorker worker = beanFactory.getBeanProvider(workerType()).getIfUnique();
		if (worker == null) {
			throw new IllegalStateException("No single " + workerType().getSimpleName() + " bean for the identifier "
					+ "of " + this.attribute + ": " + missingWorkerHint());
		}
		return worker;
	}

	/**
	 * Returns the type of the bean that issues the IDs.
	 * @return the bean type
	 */
	protected abstract Class<? extends IdWorker> workerType();

	/**
	 * Returns what to do when there is no such bean.
	 * @return the hint for the error message
	 */
	protected abstract String missingWorkerHint();

	/**
	 * Takes the next ID from the worker.
	 * @param worker the worker bean
	 * @return the ID
	 */
	protected abstract long nextId(IdWorker worker);

	/**
	 * Returns the bean factory Spring's bean container gave this generator.
	 * @return the bean factory, or {@code null} when Hibernate created the generator without Spring
	 */
	protected @Nullable BeanFactory beanFactory() {
		return this.beanFactory;
	}

	/**
	 * Returns the entity attribute this generator serves, for messages.
	 * @return {@code Entity.attribute}
	 */
	protected String attribute() {
		return this.attribute;
	}

}
