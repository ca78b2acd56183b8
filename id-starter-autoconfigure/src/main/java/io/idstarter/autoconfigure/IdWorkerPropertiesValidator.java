package io.idstarter.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

import io.idstarter.autoconfigure.IdWorkerProperties.Lease;
import io.idstarter.autoconfigure.IdWorkerProperties.Segment;
import io.idstarter.autoconfigure.IdWorkerProperties.Snowflake;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.segment.SegmentKeys;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeLayout;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Checks {@link IdWorkerProperties}: single values first, then the rules that tie values together. Each failure names
 * one property, its value, and a reason that states the allowed range and, for a rule over several properties, the
 * other values and what they add up to. Nothing is clamped: a wrong value fails.
 */
final class IdWorkerPropertiesValidator {

	private static final String PREFIX = "id-worker.";

	/** Bits a Snowflake ID has for timestamp, worker ID and sequence: a positive long keeps its sign bit clear. */
	static final int SNOWFLAKE_BITS = SnowflakeLayout.TOTAL_BITS;

	/** Most worker-ID bits: worker IDs are {@code int}s. */
	static final int MAX_WORKER_ID_BITS = SnowflakeLayout.MAX_WORKER_ID_BITS;

	/** Longest clock-backwards wait: callers are parked for up to this long. */
	static final Duration MAX_CLOCK_WAIT = ClockBackwardsPolicy.MAX_MAX_WAIT;

	/** Largest thread chunk. */
	static final int MAX_THREAD_CHUNK_SIZE = SegmentOptions.MAX_THREAD_CHUNK_SIZE;

	/** Shortest lease: what a {@link LeaseRequest} accepts. */
	private static final Duration MIN_TTL = Duration.ofSeconds(1);

	/** SQL table name, optionally schema-qualified; the stores write it into SQL, so nothing else is accepted. */
	private static final Pattern TABLE_NAME = Pattern
		.compile("([A-Za-z_][A-Za-z0-9_]{0,62}\\.)?[A-Za-z_][A-Za-z0-9_]{0,62}");

	/** Most bits of a JavaScript-safe layout: IDs below 2^53. */
	static final int JAVASCRIPT_SAFE_BITS = SnowflakeLayout.JAVASCRIPT_SAFE_BITS;

	private IdWorkerPropertiesValidator() {
	}

	/**
	 * Says which width to change by how many bits to reach the total, with what each change gives.
	 * @param epoch the epoch, for the year the timestamp runs out
	 * @param bits timestamp, worker-ID and sequence widths
	 * @param missing bits to add (positive) or remove (negative)
	 */
	private static String fixes(@Nullable Instant epoch, int[] bits, int missing) {
		String verb = (missing < 0) ? "lower" : "raise";
		List<String> options = new ArrayList<>();
		String[] names = { "timestamp-bits", "worker-id-bits", "sequence-bits" };
		for (int i = 0; i < 3; i++) {
			int width = bits[i] + missing;
			if (width < 1 || (i == 1 && width > MAX_WORKER_ID_BITS)) {
				continue;
			}
			String gives = switch (i) {
				case 0 -> (epoch != null && width < 62) ? "IDs until " + epoch.plusMillis(1L << width).atZone(
						ZoneOffset.UTC).getYear() : width + " bits of milliseconds";
				case 1 -> (1L << width) + " workers";
				default -> (1L << width) + " IDs/ms per worker";
			};
			options.add(names[i] + " to " + width + " (" + gives + ")");
		}
		return options.isEmpty() ? "change the widths so that they add up" : verb + " " + String.join(", or ", options);
	}

	static void validate(IdWorkerProperties properties, Instant now) {
		validateSnowflake(properties.getSnowflake(), now);
		validateLease(properties.getLease());
		validateSegment(properties.getSegment());
		requireTableName("jdbc.segment-table", properties.getJdbc().getSegmentTable());
		requireTableName("jdbc.lease-table", properties.getJdbc().getLeaseTable());
		requireText("redis.key-prefix", properties.getRedis().getKeyPrefix(), 128);
		requireRange("redis.wait.replicas", properties.getRedis().getWait().getReplicas(), 0, 64, "");
		requireRange("redis.wait.timeout", properties.getRedis().getWait().getTimeout(), Duration.ofMillis(1),
				Duration.ofMinutes(10));
		requireCollectionName("mongo.segment-collection", properties.getMongo().getSegmentCollection());
		requireCollectionName("mongo.lease-collection", properties.getMongo().getLeaseCollection());
		validateZooKeeper(properties.getZookeeper(), properties.getLease());
		validateEtcd(properties.getEtcd());
	}

	private static void validateZooKeeper(IdWorkerProperties.ZooKeeper zookeeper, Lease lease) {
		String connectString = zookeeper.getConnectString();
		if (connectString != null && (connectString.isBlank() || connectString.contains(",,")
				|| connectString.startsWith(",") || connectString.endsWith(","))) {
			throw invalid("zookeeper.connect-string", connectString.isBlank() ? "(blank)" : connectString,
					"must list the ensemble's servers as host:port separated by commas, such as "
							+ "zk1:2181,zk2:2181,zk3:2181 (or leave it unset and define a CuratorFramework bean)");
		}
		String rootPath = zookeeper.getRootPath();
		if (rootPath == null || !rootPath.matches("(/[^/\\s]+)+")) {
			throw invalid("zookeeper.root-path", rootPath,
					"must be an absolute ZooKeeper path such as /id-starter/worker-ids (no trailing or double slash)");
		}
		Duration sessionTimeout = zookeeper.getSessionTimeout();
		if (sessionTimeout != null && lease.getTtl() != null && sessionTimeout.compareTo(lease.getTtl()) < 0) {
			throw invalid("zookeeper.session-timeout", format(sessionTimeout), "must be at least id-worker.lease.ttl ("
					+ format(lease.getTtl()) + "): a node cut off from the ensemble must stop issuing before its "
					+ "session expires and another node can take its worker ID");
		}
		requirePositive("zookeeper.connection-timeout", zookeeper.getConnectionTimeout());
		String digest = zookeeper.getAuthDigest();
		if (digest != null && (digest.indexOf(':') < 1 || digest.endsWith(":"))) {
			throw invalid("zookeeper.auth-digest", "(hidden)", "must be user:password");
		}
		if (zookeeper.getLeafName() != null && (zookeeper.getLeafName().isBlank() || zookeeper.getLeafName().contains("/"))) {
			throw invalid("zookeeper.leaf-name", zookeeper.getLeafName(), "must be Leaf's leaf.name (not blank, no '/')");
		}
		String leafAddress = zookeeper.getLeafAddress();
		if (leafAddress != null) {
			if (zookeeper.getLeafName() == null) {
				throw invalid("zookeeper.leaf-address", leafAddress, "needs id-worker.zookeeper.leaf-name as well");
			}
			if (!leafAddress.matches("[^\\s:/]+:\\d{1,5}")) {
				throw invalid("zookeeper.leaf-address", leafAddress,
						"must be ip:port exactly as Leaf recorded it under /snowflake/{leaf-name}/forever");
			}
		}
	}

	private static void validateEtcd(IdWorkerProperties.Etcd etcd) {
		requireText("etcd.prefix", etcd.getPrefix(), 256);
		requirePositive("etcd.call-timeout", etcd.getCallTimeout());
		requirePositive("etcd.connect-timeout", etcd.getConnectTimeout());
		for (String endpoint : etcd.getEndpoints()) {
			if (!endpoint.matches("(?i)(https?|ip|dns)://\\S+")) {
				throw invalid("etcd.endpoints", endpoint, "must be URLs such as http://10.0.0.1:2379 (https:// for TLS)");
			}
		}
		if ((etcd.getUser() == null) != (etcd.getPassword() == null)) {
			throw invalid("etcd.user", etcd.getUser(), "and id-worker.etcd.password must be set together");
		}
	}

	/** Bit widths of a JavaScript-safe layout whose widths were left at the 63-bit defaults. */
	private static final int[] JAVASCRIPT_SAFE_DEFAULTS = { 41, 6, 6 };

	/**
	 * Returns the timestamp, worker-ID and sequence widths in force: those configured, or for a JavaScript-safe
	 * layout with the widths left at their 63-bit defaults, {@link #JAVASCRIPT_SAFE_DEFAULTS}.
	 * @param snowflake the settings
	 * @return three widths
	 */
	static int[] bits(Snowflake snowflake) {
		int[] configured = { snowflake.getTimestampBits(), snowflake.getWorkerIdBits(), snowflake.getSequenceBits() };
		Snowflake defaults = new Snowflake();
		int[] standard = { defaults.getTimestampBits(), defaults.getWorkerIdBits(), defaults.getSequenceBits() };
		return (snowflake.isJavascriptSafe() && Arrays.equals(configured, standard))
				? JAVASCRIPT_SAFE_DEFAULTS.clone() : configured;
	}

	private static void validateSnowflake(Snowflake snowflake, Instant now) {
		int[] bits = bits(snowflake);
		int timestampBits = bits[0];
		int workerIdBits = bits[1];
		int sequenceBits = bits[2];
		requireRange("snowflake.timestamp-bits", timestampBits, 1, SNOWFLAKE_BITS - 2, "");
		requireRange("snowflake.worker-id-bits", workerIdBits, 1, MAX_WORKER_ID_BITS,
				" (2^bits worker IDs, one per running instance)");
		requireRange("snowflake.sequence-bits", sequenceBits, 1, SNOWFLAKE_BITS - 2, " (2^bits IDs per millisecond)");
		int sum = timestampBits + workerIdBits + sequenceBits;
		boolean javascriptSafe = snowflake.isJavascriptSafe();
		if (javascriptSafe ? sum > JAVASCRIPT_SAFE_BITS : sum != SNOWFLAKE_BITS) {
			Snowflake defaults = new Snowflake();
			String name = (workerIdBits != defaults.getWorkerIdBits()) ? "snowflake.worker-id-bits"
					: (sequenceBits != defaults.getSequenceBits()) ? "snowflake.sequence-bits"
							: "snowflake.timestamp-bits";
			int value = switch (name) {
				case "snowflake.worker-id-bits" -> workerIdBits;
				case "snowflake.sequence-bits" -> sequenceBits;
				default -> timestampBits;
			};
			String rule = javascriptSafe
					? "with id-worker.snowflake.javascript-safe, timestamp-bits + worker-id-bits + sequence-bits must "
							+ "be at most " + JAVASCRIPT_SAFE_BITS + " so that every ID stays below 2^53"
					: "timestamp-bits + worker-id-bits + sequence-bits must be " + SNOWFLAKE_BITS
							+ " so that every ID is a positive long";
			throw invalid(name, value, rule + ", but " + timestampBits + " + " + workerIdBits + " + " + sequenceBits
					+ " = " + sum + ": " + fixes(snowflake.getEpoch(), bits, (javascriptSafe ? JAVASCRIPT_SAFE_BITS
							: SNOWFLAKE_BITS) - sum));
		}
		Instant epoch = snowflake.getEpoch();
		if (epoch == null || epoch.isAfter(now) || epoch.isBefore(Instant.EPOCH)) {
			throw invalid("snowflake.epoch", epoch,
					"must be between " + Instant.EPOCH + " and now (it is now " + now + ")");
		}
		Instant end = epoch.plusMillis(1L << timestampBits);
		if (!end.isAfter(now)) {
			throw invalid("snowflake.timestamp-bits", timestampBits,
					"with epoch " + epoch + ", " + timestampBits + " timestamp bits ran out at " + end
							+ ": use more timestamp bits or a later epoch");
		}
		Duration maxWait = snowflake.getClockBackwards().getMaxWait();
		if (maxWait == null || maxWait.isNegative() || maxWait.compareTo(MAX_CLOCK_WAIT) > 0) {
			throw invalid("snowflake.clock-backwards.max-wait", format(maxWait), "must be between 0 and "
					+ format(MAX_CLOCK_WAIT) + " (requests are held for up to this long while the clock catches up)");
		}
		if (snowflake.getClockBackwards().getPolicy() == null) {
			throw invalid("snowflake.clock-backwards.policy", null, "must be 'fail' or 'tolerate'");
		}
		if (snowflake.getPreset() != null && snowflake.isJavascriptSafe()) {
			throw invalid("snowflake.javascript-safe", true, "cannot be combined with id-worker.snowflake.preset ("
					+ snowflake.getPreset().name().toLowerCase(java.util.Locale.ROOT) + "), whose layout has 63 bits; "
					+ "remove one of them");
		}
		Snowflake defaults = new Snowflake();
		if (snowflake.getPreset() != null && (!epoch.equals(defaults.getEpoch())
				|| timestampBits != defaults.getTimestampBits() || workerIdBits != defaults.getWorkerIdBits()
				|| sequenceBits != defaults.getSequenceBits())) {
			throw invalid("snowflake.preset", snowflake.getPreset().name().toLowerCase(java.util.Locale.ROOT),
					"fixes the epoch and the bit counts; remove id-worker.snowflake.epoch, timestamp-bits, "
							+ "worker-id-bits and sequence-bits, or the preset");
		}
	}

	private static void validateLease(Lease lease) {
		String namespace = lease.getNamespace();
		if (namespace != null && (namespace.isBlank() || namespace.length() > LeaseRequest.MAX_NAMESPACE_LENGTH)) {
			throw invalid("lease.namespace", namespace,
					"must be 1 to " + LeaseRequest.MAX_NAMESPACE_LENGTH + " characters and not blank");
		}
		Duration ttl = lease.getTtl();
		if (ttl == null || ttl.compareTo(MIN_TTL) < 0) {
			throw invalid("lease.ttl", format(ttl), "must be at least " + format(MIN_TTL));
		}
		requirePositive("lease.heartbeat", lease.getHeartbeat());
		requirePositive("lease.safety-margin", lease.getSafetyMargin());
		Duration heartbeat = lease.getHeartbeat();
		Duration safetyMargin = lease.getSafetyMargin();
		Duration limit = ttl.minus(safetyMargin);
		if (heartbeat.compareTo(limit) >= 0) {
			throw invalid("lease.heartbeat", format(heartbeat),
					"must be less than id-worker.lease.ttl (" + format(ttl) + ") minus id-worker.lease.safety-margin ("
							+ format(safetyMargin) + "), that is less than " + format(limit)
							+ ", so that a renewal is tried before an instance must stop issuing IDs");
		}
		requireNotNegative("lease.max-clock-skew", lease.getMaxClockSkew());
		if (lease.getMaxStartupWait() != null) {
			requireNotNegative("lease.max-startup-wait", lease.getMaxStartupWait());
		}
	}

	private static void validateSegment(Segment segment) {
		if (segment.getStore() == null) {
			throw invalid("segment.store", null, "must be " + IdWorkerStores.names((store) -> store.segmentConfiguration() != null));
		}
		if (!segment.getStore().holdsSegments()) {
			throw invalid("segment.store", segment.getStore().name().toLowerCase(java.util.Locale.ROOT),
					"must be " + IdWorkerStores.names((store) -> store.segmentConfiguration() != null) + ": "
							+ segment.getStore().description()
							+ " holds worker-ID leases only");
		}
		double threshold = segment.getPrefetchThreshold();
		if (!(threshold > 0 && threshold < 1)) {
			throw invalid("segment.prefetch-threshold", threshold,
					"must be between 0 and 1 exclusive (the fraction of a segment used before the next is fetched)");
		}
		requirePositive("segment.max-wait", segment.getMaxWait());
		requirePositive("segment.key-refresh-interval", segment.getKeyRefreshInterval());
		if (segment.getDefaultKey() != null) {
			requireText("segment.default-key", segment.getDefaultKey(), 128);
		}
		requireRange("segment.thread-chunk-size", segment.getThreadChunkSize(), 0, MAX_THREAD_CHUNK_SIZE,
				" (0 turns it off)");
		requireValid("segment.heal-margin", segment.getHealMargin(),
				() -> SegmentOptions.builder().healMargin(segment.getHealMargin()));
		IdWorkerProperties.DynamicStep dynamicStep = segment.getDynamicStep();
		requirePositive("segment.dynamic-step.expand-below", dynamicStep.getExpandBelow());
		requirePositive("segment.dynamic-step.shrink-above", dynamicStep.getShrinkAbove());
		if (dynamicStep.getShrinkAbove().compareTo(dynamicStep.getExpandBelow()) <= 0) {
			throw invalid("segment.dynamic-step.shrink-above", format(dynamicStep.getShrinkAbove()),
					"must be greater than id-worker.segment.dynamic-step.expand-below ("
							+ format(dynamicStep.getExpandBelow()) + ")");
		}
		requireRange("segment.dynamic-step.max-step", dynamicStep.getMaxStep(), 1, Integer.MAX_VALUE, "");
		segment.getKeys().forEach((name, key) -> {
			String prefix = "segment.keys." + name;
			requireValid(prefix, name, () -> SegmentKeys.checkKey(name));
			requireValid(prefix + ".step", key.getStep(), () -> SegmentKeys.checkStep(name, key.getStep()));
			requireValid(prefix + ".first-id", key.getFirstId(),
					() -> SegmentKeys.checkFirstId(name, key.getFirstId(), key.getStep()));
			requireValid(prefix + ".description", key.getDescription(),
					() -> SegmentKeys.checkDescription(name, key.getDescription()));
		});
	}

	/**
	 * Applies a rule that core states once (and its stores apply too), reporting a broken one against the property.
	 */
	private static void requireValid(String name, @Nullable Object value, Runnable rule) {
		try {
			rule.run();
		}
		catch (IllegalArgumentException | NullPointerException ex) {
			throw invalid(name, value, ex.getMessage());
		}
	}

	private static void requireRange(String name, int value, int min, int max, String meaning) {
		if (value < min || value > max) {
			throw invalid(name, value, "must be between " + min + " and " + max + meaning);
		}
	}

	private static void requireRange(String name, Duration value, Duration min, Duration max) {
		if (value == null || value.compareTo(min) < 0 || value.compareTo(max) > 0) {
			throw invalid(name, format(value), "must be between " + format(min) + " and " + format(max));
		}
	}

	private static void requirePositive(String name, Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw invalid(name, format(value), "must be positive");
		}
	}

	private static void requireNotNegative(String name, Duration value) {
		if (value == null || value.isNegative()) {
			throw invalid(name, format(value), "must not be negative");
		}
	}

	private static void requireText(String name, String value, int maxLength) {
		if (value == null || value.isBlank() || value.length() > maxLength) {
			throw invalid(name, value, "must be 1 to " + maxLength + " characters and not blank");
		}
	}

	private static void requireTableName(String name, String value) {
		if (value == null || !TABLE_NAME.matcher(value).matches()) {
			throw invalid(name, value, "must be an SQL identifier: a letter or '_', then letters, digits or '_', "
					+ "at most 63 characters, optionally qualified by a schema ('schema.table')");
		}
	}

	private static void requireCollectionName(String name, String value) {
		if (value == null || value.isBlank() || value.length() > 120 || value.contains("$") || value.indexOf('\0') >= 0
				|| value.startsWith("system.")) {
			throw invalid(name, value,
					"must be a MongoDB collection name: 1 to 120 characters, no '$', not starting with 'system.'");
		}
	}

	private static InvalidConfigurationPropertyValueException invalid(String name, Object value, String reason) {
		return new InvalidConfigurationPropertyValueException(PREFIX + name, value, reason);
	}

	/**
	 * Formats a duration as it is usually written in application.yml.
	 * @param duration the duration
	 * @return for example {@code 30s}, {@code 250ms} or {@code 2m}
	 */
	static String format(Duration duration) {
		if (duration == null) {
			return "null";
		}
		long millis = duration.toMillis();
		if (millis % 60_000 == 0 && millis != 0) {
			return (millis / 60_000) + "m";
		}
		if (millis % 1000 == 0 && millis != 0) {
			return (millis / 1000) + "s";
		}
		return millis + "ms";
	}

}
