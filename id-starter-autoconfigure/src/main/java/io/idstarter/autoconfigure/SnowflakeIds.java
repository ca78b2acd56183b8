package io.idstarter.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Qualifies an {@link io.idstarter.IdWorker} injection point with the Snowflake generator, for applications that turn
 * on segment and Snowflake IDs at once ({@code @EnableIdWorker(mode = { SEGMENT, DB })}). The same as
 * {@code @Qualifier("snowflakeIdWorker")}.
 *
 * @since 0.1.0
 */
@Target({ ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.TYPE,
		ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier(SnowflakeIds.BEAN_NAME)
public @interface SnowflakeIds {

	/** Name of the Snowflake generator bean. */
	String BEAN_NAME = "snowflakeIdWorker";

}
