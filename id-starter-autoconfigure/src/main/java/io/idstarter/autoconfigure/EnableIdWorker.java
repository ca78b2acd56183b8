package io.idstarter.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.context.annotation.Import;

/**
 * Turns on ID generation: put it once on the application's main class and autowire {@link io.idstarter.IdWorker}.
 *
 * <p>Each mode adds one generator bean: {@link IdWorkerMode#SEGMENT} a {@code SegmentIdGenerator} named
 * {@code segmentIdWorker}; every other mode of {@link IdWorkerMode} (a Snowflake mode, such as {@link IdWorkerMode#DB}
 * or {@link IdWorkerMode#HTTP} for the ID servers) a {@code SnowflakeIdGenerator} named {@code snowflakeIdWorker},
 * whose worker ID is leased from that mode's store. With two modes ({@code mode = { SEGMENT, DB }}), the generator of
 * the first is the primary {@code IdWorker} and the other is injected with {@link SegmentIds @SegmentIds} or
 * {@link SnowflakeIds @SnowflakeIds}. At most one Snowflake mode may be named: one JVM holds one worker ID.
 *
 * <p>Settings are under {@code id-worker.*} ({@link IdWorkerProperties}). Every bean backs off when the application
 * defines its own: to lease worker IDs from a store of its own, an application defines an
 * {@link io.idstarter.lease.ISequenceManager} bean.
 *
 * @since 0.1.0
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Import(IdWorkerConfigurationSelector.class)
public @interface EnableIdWorker {

	/**
	 * Modes to turn on; the first one's generator is the primary {@code IdWorker}.
	 * @return one mode, or {@link IdWorkerMode#SEGMENT} and one Snowflake mode
	 */
	IdWorkerMode[] mode();

}
