package io.idstarter.store.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ClassUtils;

/**
 * Runs the stores' scripts with the durability they demand ({@link RedisDurability}): before the first call it asks
 * the server whether it keeps an append-only file, and after a script that wrote it sends {@code WAIT} on the same
 * connection and fails unless enough replicas acknowledged.
 *
 * <p>{@code WAIT} counts the writes of the connection it is sent on, so script and {@code WAIT} run in one
 * {@link SessionCallback}, which binds one connection for both (with Lettuce's shared connection, that shared
 * connection; other commands on it queue behind a {@code WAIT} for at most the wait timeout). On Redis Cluster a
 * client routes the script to the key's master but a key-less {@code WAIT} elsewhere, so with Lettuce both go to the
 * connection to the key's master ({@link LettuceClusterScript}); with another client acknowledgement is refused
 * rather than checked on the wrong shard. A script must reply {@code ok} or {@code created} exactly when it wrote.
 */
final class RedisScriptRunner {

	private static final Logger logger = LoggerFactory.getLogger(RedisScriptRunner.class);

	/** Whether Lettuce is on the class path, so that {@link LettuceWait} may be loaded. */
	private static final boolean LETTUCE = ClassUtils.isPresent("io.lettuce.core.output.IntegerOutput",
			RedisScriptRunner.class.getClassLoader());

	private final StringRedisTemplate redis;

	private final RedisDurability durability;

	private final String server;

	/** Whether the server was found to keep its writes (or could not tell); once true, never asked again. */
	private volatile boolean persistenceChecked;

	RedisScriptRunner(StringRedisTemplate redis, RedisDurability durability, String server) {
		this.redis = redis;
		this.durability = Objects.requireNonNull(durability, "durability");
		this.server = server;
		this.persistenceChecked = !durability.requirePersistence();
	}

	RedisDurability durability() {
		return this.durability;
	}

	/**
	 * Runs a script, then waits for replica acknowledgement if it wrote.
	 * @return the script's reply, never empty
	 * @throws DataAccessException if Redis cannot be reached or the script fails
	 * @throws IllegalStateException if the connection factory is not started or already stopped
	 * @throws RedisDurabilityException if the server keeps no append-only file, or too few replicas acknowledged
	 */
	List<Object> run(RedisScript<List<Object>> script, List<String> keys, Object... args) {
		checkPersistence();
		if (this.durability.waitReplicas() == 0) {
			return reply(script, this.redis.execute(script, keys, args));
		}
		return this.redis.execute(new SessionCallback<List<Object>>() {

			@Override
			public <K, V> List<Object> execute(RedisOperations<K, V> operations) {
				// The template finds the connection this session bound, so every call below uses it.
				StringRedisTemplate bound = RedisScriptRunner.this.redis;
				if (Boolean.TRUE.equals(bound.execute(
						(RedisCallback<Boolean>) (connection) -> connection instanceof RedisClusterConnection))) {
					return runOnCluster(bound, script, keys, args);
				}
				List<Object> reply = reply(script, bound.execute(script, keys, args));
				String status = RedisSupport.text(reply, 0);
				if ("ok".equals(status) || "created".equals(status)) {
					awaitReplicas(bound);
				}
				return reply;
			}

		});
	}

	private List<Object> runOnCluster(StringRedisTemplate bound, RedisScript<List<Object>> script, List<String> keys,
			Object[] args) {
		int replicas = this.durability.waitReplicas();
		long timeout = this.durability.waitTimeout().toMillis();
		LettuceClusterScript.Reply answer = bound.execute((RedisCallback<LettuceClusterScript.Reply>) (connection) -> {
			if (!LETTUCE || !LettuceClusterScript.applies(connection)) {
				throw new RedisDurabilityException(RedisDurabilityException.Reason.UNSUPPORTED, this.server
						+ ": replica acknowledgement (WAIT) on Redis Cluster needs the Lettuce client, which sends the "
						+ "script and WAIT to the key's master; with another client use a standalone or "
						+ "Sentinel-managed Redis for IDs, or set the wait replicas to 0 and accept that a failover "
						+ "may lose the last writes (see docs/redis.md)");
			}
			return LettuceClusterScript.run(connection, script, keys, args, replicas, timeout);
		}, /* exposeConnection= */ true);
		if (answer == null) {
			throw new IllegalStateException("script " + script.getSha1() + " returned no reply");
		}
		if (answer.acknowledged() >= 0 && answer.acknowledged() < replicas) {
			throw notAcknowledged(answer.acknowledged());
		}
		return reply(script, answer.reply());
	}

	/**
	 * Checks persistence before a call that only reads (the key list), so that a refused server shows at start.
	 */
	void beforeRead() {
		checkPersistence();
	}

	private void awaitReplicas(StringRedisTemplate bound) {
		int replicas = this.durability.waitReplicas();
		long timeout = this.durability.waitTimeout().toMillis();
		byte[] replicasArg = bytes(Integer.toString(replicas));
		byte[] timeoutArg = bytes(Long.toString(timeout));
		// Exposed as is (not through the template's proxy), so that a Lettuce connection can be told apart.
		Object answer = bound.execute((RedisCallback<Object>) (connection) -> {
			if (LETTUCE && LettuceWait.applies(connection)) {
				return LettuceWait.await(connection, replicasArg, timeoutArg);
			}
			return connection.execute("WAIT", replicasArg, timeoutArg);
		}, /* exposeConnection= */ true);
		long acknowledged = (answer instanceof Number number) ? number.longValue()
				: (answer instanceof byte[] raw) ? Long.parseLong(new String(raw, StandardCharsets.US_ASCII)) : -1;
		if (acknowledged < replicas) {
			throw notAcknowledged(acknowledged);
		}
	}

	private RedisDurabilityException notAcknowledged(long acknowledged) {
		int replicas = this.durability.waitReplicas();
		long timeout = this.durability.waitTimeout().toMillis();
		return new RedisDurabilityException(RedisDurabilityException.Reason.NOT_ACKNOWLEDGED,
				this.server + " applied the write but only " + acknowledged + " of the required " + replicas
						+ " replicas acknowledged it within " + timeout + " ms (WAIT " + replicas + " " + timeout
						+ "); it is not used, since a failover could lose it. Check the replicas (INFO replication)"
						+ " and their link, or lower id-worker.redis.wait.replicas / raise "
						+ "id-worker.redis.wait.timeout");
	}

	private void checkPersistence() {
		if (this.persistenceChecked) {
			return;
		}
		RedisPersistence persistence = this.redis.execute((RedisCallback<RedisPersistence>) RedisPersistence::inspect);
		if (persistence == null) {
			throw new IllegalStateException(this.server + " gave no answer to the persistence check");
		}
		if (!persistence.mode().keepsWrites()) {
			throw new RedisDurabilityException(RedisDurabilityException.Reason.NOT_PERSISTENT, notPersistent(
					this.server, persistence));
		}
		if (persistence.mode() == RedisPersistence.Mode.UNKNOWN) {
			logger.warn("Could not tell whether {} keeps its data across a restart ({}); the ID stores rely on an "
					+ "append-only file (appendonly yes, appendfsync always or everysec): without one a restart loses "
					+ "worker-ID leases and segment marks, and IDs may repeat", this.server, persistence.evidence());
		}
		else {
			logger.info("{} keeps its data in an append-only file ({}); {}", this.server, persistence.evidence(),
					describeWindow(persistence.mode()));
		}
		int replicas = this.durability.waitReplicas();
		if (replicas == 0 && persistence.connectedReplicas() > 0) {
			logger.warn("{} has {} connected replica(s) but the ID stores do not wait for them "
					+ "(id-worker.redis.wait.replicas=0): a failover to a replica that missed the last writes loses "
					+ "leases and segment marks, and IDs may repeat", this.server, persistence.connectedReplicas());
		}
		else if (replicas > 0 && persistence.connectedReplicas() >= 0 && persistence.connectedReplicas() < replicas) {
			logger.warn("{} has {} connected replica(s), fewer than id-worker.redis.wait.replicas={}: every lease and "
					+ "segment write will fail until enough replicas are connected", this.server,
					persistence.connectedReplicas(), replicas);
		}
		this.persistenceChecked = true;
	}

	static String notPersistent(String server, RedisPersistence persistence) {
		String found = (persistence.mode() == RedisPersistence.Mode.SNAPSHOTS_ONLY)
				? "keeps only RDB snapshots, so a restart goes back to the last snapshot and loses the writes after it"
				: "keeps nothing on disk, so a restart loses every write";
		return server + " " + found + " (" + persistence.evidence() + "). Worker-ID leases and segment marks lost "
				+ "that way let two nodes issue the same IDs. Turn on the append-only file (appendonly yes, "
				+ "appendfsync always; or everysec, which may lose about a second of writes if the host crashes), or "
				+ "set id-worker.redis.allow-volatile=true to accept the risk";
	}

	private static String describeWindow(RedisPersistence.Mode mode) {
		return switch (mode) {
			case AOF_ALWAYS -> "every acknowledged write survives a restart";
			case AOF_EVERYSEC -> "a crash of Redis loses nothing, a crash of the host up to about a second of writes";
			case AOF_NO_FSYNC -> "a crash of the host may lose tens of seconds of writes (appendfsync no)";
			default -> "its fsync policy is unknown";
		};
	}

	private static List<Object> reply(RedisScript<List<Object>> script, List<Object> reply) {
		if (reply == null || reply.isEmpty()) {
			throw new IllegalStateException("script " + script.getSha1() + " returned no reply");
		}
		return reply;
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.US_ASCII);
	}

}
