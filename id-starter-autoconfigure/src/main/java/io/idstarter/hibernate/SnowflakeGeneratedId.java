package io.idstarter.hibernate;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.hibernate.annotations.IdGeneratorType;

/**
 * Assigns the annotated entity identifier a Snowflake ID from the application's Snowflake generator when the entity
 * is persisted. Put it next to {@code @Id} on a {@code long}, {@code Long} or {@code String} attribute:
 * <pre class="code">
 * &#64;Id
 * &#64;SnowflakeGeneratedId
 * private Long id;
 * </pre>
 * An identifier that is already set (not {@code null} and not {@code 0}) is kept. Needs Hibernate bootstrapped by
 * Spring (as Spring Boot does), so that the generator can reach the generator bean.
 *
 * @since 0.1.0
 * @see SegmentGeneratedId
 */
@IdGeneratorType(SnowflakeIdentifierGenerator.class)
@Target({ ElementType.FIELD, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface SnowflakeGeneratedId {

}
