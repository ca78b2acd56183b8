package io.idstarter.shardingsphere;

import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Hands the application's ID generators to {@link IdWorkerKeyGenerateAlgorithm}, which ShardingSphere creates through
 * its SPI, outside Spring. Published once every singleton of the context exists (so the generators have started),
 * withdrawn when the context closes.
 *
 * <p>One application context per JVM uses ShardingSphere's {@code ID_STARTER} key generator: when several publish,
 * the latest one serves every algorithm instance.
 *
 * @since 0.1.0
 */
public final class ShardingSphereIdWorkers implements SmartInitializingSingleton, DisposableBean {

	/** Generators of the context that published last; {@code null} before any context is ready and after it closed. */
	private static volatile @Nullable ShardingSphereIdWorkers published;

	private final ObjectProvider<SnowflakeIdGenerator> snowflake;

	private final ObjectProvider<SegmentIdGenerator> segments;

	/**
	 * Creates the bridge.
	 * @param snowflake the Snowflake generator, if the application defines one
	 * @param segments the segment generator, if the application defines one
	 */
	public ShardingSphereIdWorkers(ObjectProvider<SnowflakeIdGenerator> snowflake,
			ObjectProvider<SegmentIdGenerator> segments) {
		this.snowflake = snowflake;
		this.segments = segments;
	}

	@Override
	public void afterSingletonsInstantiated() {
		published = this;
	}

	@Override
	public void destroy() {
		synchronized (ShardingSphereIdWorkers.class) {
			if (published == this) {
				published = null;
			}
		}
	}

	/**
	 * Returns the generators of the application context that is ready.
	 * @return the published bridge, or {@code null} while no context is ready
	 */
	static @Nullable ShardingSphereIdWorkers published() {
		return published;
	}

	@Nullable SnowflakeIdGenerator snowflake() {
		return this.snowflake.getIfUnique();
	}

	@Nullable SegmentIdGenerator segments() {
		return this.segments.getIfUnique();
	}

}
