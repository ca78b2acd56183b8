package io.idstarter.shardingsphere;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import io.idstarter.IdGenerationException;
import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.UnknownKeyException;
import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmExecuteException;
import org.apache.shardingsphere.infra.algorithm.core.exception.AlgorithmInitializationException;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.jspecify.annotations.Nullable;

/**
 * ShardingSphere key generate algorithm of type {@value #TYPE} that takes keys from the application's id-starter
 * generator instead of ShardingSphere's own Snowflake, whose worker ID is configured by hand or drawn from its mode
 * repository.
 *
 * <p>Properties:
 * <ul>
 * <li>{@code generator}: {@code snowflake} (default), the {@code @EnableIdWorker} Snowflake generator; or
 * {@code segment}, the segment generator.</li>
 * <li>{@code segment-key}: the segment key the IDs come from; required with {@code generator=segment}, not allowed
 * otherwise.</li>
 * </ul>
 * Any other property, a bad value or a missing key fails the algorithm's initialization with ShardingSphere's
 * {@link AlgorithmInitializationException}, as ShardingSphere's own algorithms fail.
 *
 * <p>ShardingSphere creates the algorithm through its SPI, outside Spring; it reaches the generators through
 * {@link ShardingSphereIdWorkers}, which id-starter's auto-configuration publishes once the application context is
 * ready. Keys asked for before that, or with no such context, fail with an {@link AlgorithmExecuteException} that says
 * so. The keys of one insert are issued in one batch ({@link IdWorker#nextIds}).
 *
 * @since 0.2.0
 */
public final class IdWorkerKeyGenerateAlgorithm implements KeyGenerateAlgorithm {

	/** The algorithm type, as named in ShardingSphere's {@code keyGenerators} configuration. */
	public static final String TYPE = "ID_STARTER";

	/** Property that picks the generator. */
	public static final String GENERATOR = "generator";

	/** Property that names the segment key. */
	public static final String SEGMENT_KEY = "segment-key";

	private static final Set<String> PROPERTIES = Set.of(GENERATOR, SEGMENT_KEY);

	private Generator generator = Generator.SNOWFLAKE;

	private @Nullable String segmentKey;

	@Override
	public void init(Properties props) {
		Set<String> unknown = new TreeSet<>();
		for (Object name : props.keySet()) {
			if (!PROPERTIES.contains(String.valueOf(name))) {
				unknown.add(String.valueOf(name));
			}
		}
		if (!unknown.isEmpty()) {
			throw initializationFailure("unknown propert" + ((unknown.size() == 1) ? "y " : "ies ") + unknown
					+ "; the properties are " + GENERATOR + " (snowflake or segment) and " + SEGMENT_KEY);
		}
		this.generator = Generator.of(value(props, GENERATOR), this);
		this.segmentKey = value(props, SEGMENT_KEY);
		if (this.generator == Generator.SEGMENT && this.segmentKey == null) {
			throw initializationFailure(GENERATOR + "=segment needs the property " + SEGMENT_KEY
					+ ", the segment key the IDs come from (a key of id-worker's segment store)");
		}
		if (this.generator == Generator.SNOWFLAKE && this.segmentKey != null) {
			throw initializationFailure(SEGMENT_KEY + " '" + this.segmentKey + "' applies only to " + GENERATOR
					+ "=segment; remove it, or set " + GENERATOR + "=segment");
		}
	}

	private static @Nullable String value(Properties props, String name) {
		Object value = props.get(name);
		if (value == null) {
			return null;
		}
		String text = String.valueOf(value).trim();
		return text.isEmpty() ? null : text;
	}

	@Override
	public Collection<Long> generateKeys(AlgorithmSQLContext context, int keyGenerateCount) {
		if (keyGenerateCount < 1) {
			return List.of();
		}
		ShardingSphereIdWorkers workers = ShardingSphereIdWorkers.published();
		if (workers == null) {
			throw executionFailure("no Spring application context with id-starter is ready in this JVM: keys are "
					+ "issued once the context that declares @EnableIdWorker has started (not while its beans are "
					+ "created), and while it runs");
		}
		long[] ids;
		try {
			ids = (this.generator == Generator.SNOWFLAKE) ? snowflakeIds(workers, context, keyGenerateCount)
					: segmentIds(workers, keyGenerateCount);
		}
		catch (IdGenerationException ex) {
			throw executionFailure(ex.getMessage());
		}
		List<Long> keys = new ArrayList<>(ids.length);
		for (long id : ids) {
			keys.add(id);
		}
		return keys;
	}

	private long[] snowflakeIds(ShardingSphereIdWorkers workers, AlgorithmSQLContext context, int count) {
		IdWorker snowflake = workers.snowflake();
		if (snowflake == null) {
			throw executionFailure(GENERATOR + "=snowflake needs a Snowflake mode of @EnableIdWorker ("
					+ IdWorkerMode.names(IdWorkerMode::isSnowflake) + "); the application has none: enable one, or "
					+ "set " + GENERATOR + "=segment with a " + SEGMENT_KEY);
		}
		// Snowflake ignores the key: every table shares the one number space.
		return snowflake.nextIds(context.getTableName(), count);
	}

	private long[] segmentIds(ShardingSphereIdWorkers workers, int count) {
		SegmentIdGenerator segments = workers.segments();
		String key = this.segmentKey;
		if (segments == null || key == null) {
			throw executionFailure(GENERATOR + "=segment needs segment mode (@EnableIdWorker(mode = "
					+ IdWorkerMode.SEGMENT + ")); the application has no segment generator: enable it, or use "
					+ GENERATOR + "=snowflake");
		}
		try {
			return segments.nextIds(key, count);
		}
		catch (UnknownKeyException ex) {
			// The generator looked the key up in the store (at most once a second) before refusing it.
			throw executionFailure(SEGMENT_KEY + " '" + key + "' is not in the segment store: create the key "
					+ "(SegmentKeyAdmin.createKey, the ID server's admin API, or an INSERT into the segment table), "
					+ "or correct " + SEGMENT_KEY);
		}
	}

	/*
	 * ShardingSphere formats the reason it is given as a pattern with the arguments; passing the text as an argument
	 * keeps a '%' in a property value from breaking the message.
	 */

	private AlgorithmInitializationException initializationFailure(String reason) {
		return new AlgorithmInitializationException(this, "%s", reason);
	}

	private AlgorithmExecuteException executionFailure(@Nullable String reason) {
		return new AlgorithmExecuteException(this, "%s", String.valueOf(reason));
	}

	@Override
	public String getType() {
		return TYPE;
	}

	/**
	 * Where the keys come from.
	 */
	private enum Generator {

		/** The application's Snowflake generator. */
		SNOWFLAKE,

		/** The application's segment generator, one key. */
		SEGMENT;

		static Generator of(@Nullable String value, IdWorkerKeyGenerateAlgorithm algorithm) {
			if (value == null) {
				return SNOWFLAKE;
			}
			for (Generator generator : values()) {
				if (generator.name().toLowerCase(Locale.ROOT).equals(value.toLowerCase(Locale.ROOT))) {
					return generator;
				}
			}
			throw algorithm.initializationFailure(GENERATOR + " '" + value + "' is not a generator: use snowflake "
					+ "(the default) or segment");
		}

	}

}
