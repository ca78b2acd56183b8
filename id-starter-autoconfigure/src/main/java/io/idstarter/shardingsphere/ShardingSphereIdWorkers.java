package io.idstarter.shardingsphere;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

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
 * <p>One application context per JVM is meant to use ShardingSphere's {@code ID_STARTER} key generator: when several
 * are ready, the one that became ready last serves every algorithm instance, and when it closes, the one before it
 * again.
 *
 * @since 0.2.0
 */
public final class ShardingSphereIdWorkers implements SmartInitializingSingleton, DisposableBean {

	/** Bridges of the contexts that are ready, in the order they became ready; the last one serves. */
	private static final List<ShardingSphereIdWorkers> ready = new CopyOnWriteArrayList<>();

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
		ready.add(this);
	}

	@Override
	public void destroy() {
		ready.remove(this);
	}

	/**
	 * Returns the generators of the application context that became ready last.
	 * @return the published bridge, or {@code null} while no context is ready
	 */
	static @Nullable ShardingSphereIdWorkers published() {
		// A snapshot: another context may become ready or close between a size check and a get.
		Object[] snapshot = ready.toArray();
		return (snapshot.length > 0) ? (ShardingSphereIdWorkers) snapshot[snapshot.length - 1] : null;
	}

	@Nullable SnowflakeIdGenerator snowflake() {
		return this.snowflake.getIfUnique();
	}

	@Nullable SegmentIdGenerator segments() {
		return this.segments.getIfUnique();
	}

}
