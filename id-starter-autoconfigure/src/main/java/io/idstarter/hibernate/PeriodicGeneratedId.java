package io.idstarter.hibernate;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.hibernate.annotations.IdGeneratorType;

/**
 * Assigns the annotated {@code String} entity identifier the next formatted number of a periodic key from the
 * application's {@link io.idstarter.segment.PeriodicNumbers} bean when the entity is persisted:
 * <pre class="code">
 * &#64;Id
 * &#64;PeriodicGeneratedId(key = "invoice")
 * private String number;
 * </pre>
 * with {@code id-worker.segment.periodic-keys.invoice.format=INV-{yyyyMMdd}-{seq:6}} gives
 * {@code INV-20261126-000001}. An identifier that is already set (not {@code null} and not empty) is kept. Needs
 * Hibernate bootstrapped by Spring (as Spring Boot does), so that the generator can reach the bean.
 *
 * @since 0.1.0
 * @see SegmentGeneratedId
 */
@IdGeneratorType(PeriodicIdentifierGenerator.class)
@Target({ ElementType.FIELD, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface PeriodicGeneratedId {

	/**
	 * The periodic key, declared under {@code id-worker.segment.periodic-keys}.
	 * @return the key
	 */
	String key();

}
