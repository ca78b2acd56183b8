package io.idstarter.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Qualifies an {@link io.idstarter.IdWorker} injection point with the segment generator, for applications that turn
 * on segment and Snowflake IDs at once ({@code @EnableIdWorker(mode = { DB, SEGMENT })}). The same as
 * {@code @Qualifier("segmentIdWorker")}.
 *
 * @since 0.1.0
 */
@Target({ ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD, ElementType.TYPE,
		ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier(SegmentIds.BEAN_NAME)
public @interface SegmentIds {

	/** Name of the segment generator bean. */
	String BEAN_NAME = "segmentIdWorker";

}
