package io.idstarter.store.redis;

import java.util.List;
import java.util.Objects;
import java.util.Set;

import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.UnknownKeyException;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A {@link SegmentStore} in Redis: one hash per key ({@code max_id}, {@code step}, {@code description},
 * {@code update_time}, as in Leaf's {@code leaf_alloc} table) and a set of all keys, each operation one Lua script.
 *
 * <p>Keys are {@code <prefix>segment:key:<key>} and {@code <prefix>segment:keys}. Segment keys are 1 to
 * {@value #MAX_KEY_LENGTH} characters from {@code A-Z a-z 0-9 . _ : -}. On Redis Cluster, give a prefix with a hash
 * tag (for example {@code {id-starter}:}) so that creating a key, which writes two Redis keys, stays in one slot.
 *
 * @see RedisSequenceManager
 */
public class RedisSegmentStore implements SegmentStore, SegmentKeyAdmin {

	/** Longest segment key accepted, as Leaf's {@code biz_tag} column. */
	public static final int MAX_KEY_LENGTH = 128;

	private static final RedisScript<List<Object>> ALLOCATE = RedisSupport.script("segment-allocate.lua");

	private static final RedisScript<List<Object>> CREATE_KEY = RedisSupport.script("segment-create-key.lua");

	private static final RedisScript<List<Object>> UPDATE_STEP = RedisSupport.script("segment-update-step.lua");

	private final StringRedisTemplate redis;

	private final RedisScriptRunner scripts;

	private final String keyPrefix;

	private final String keySet;

	private final String server;

	/**
	 * Creates a store with the key prefix {@code id-starter:} that demands no durability of the server
	 * ({@link RedisDurability#unchecked()}).
	 * @param factory connections to Redis (started, or started before the first call)
	 */
	public RedisSegmentStore(RedisConnectionFactory factory) {
		this(factory, RedisSupport.DEFAULT_KEY_PREFIX);
	}

	/**
	 * Creates a store that demands no durability of the server ({@link RedisDurability#unchecked()}).
	 * @param factory connections to Redis (started, or started before the first call)
	 * @param keyPrefix prefix of every Redis key the store writes, not empty
	 */
	public RedisSegmentStore(RedisConnectionFactory factory, String keyPrefix) {
		this(factory, keyPrefix, RedisDurability.unchecked());
	}

	/**
	 * Creates a store.
	 * @param factory connections to Redis (started, or started before the first call)
	 * @param keyPrefix prefix of every Redis key the store writes, not empty
	 * @param durability what the server must keep, and how many replicas must acknowledge each write; a call that
	 * does not get it fails with a {@link SegmentStoreException} whose cause is a {@link RedisDurabilityException},
	 * and a range allocated by a write that was not acknowledged is never served
	 */
	public RedisSegmentStore(RedisConnectionFactory factory, String keyPrefix, RedisDurability durability) {
		Objects.requireNonNull(factory, "factory");
		this.keyPrefix = RedisSupport.requireKeyPrefix(keyPrefix);
		this.keySet = keyPrefix + "segment:keys";
		this.redis = new StringRedisTemplate(factory);
		this.server = RedisSupport.describe(factory);
		this.scripts = new RedisScriptRunner(this.redis, durability, this.server);
	}

	/**
	 * Returns what this store demands of the server.
	 * @return the durability given at construction
	 */
	public RedisDurability durability() {
		return this.scripts.durability();
	}

	@Override
	public SegmentAllocation allocate(String key) {
		checkKey(key);
		return allocate(key, "");
	}

	@Override
	public SegmentAllocation allocate(String key, int step) {
		checkKey(key);
		checkStep(key, step);
		return allocate(key, Integer.toString(step));
	}

	private SegmentAllocation allocate(String key, String step) {
		String record = recordKey(key);
		List<Object> reply = execute(ALLOCATE, List.of(record), "allocate a range of key '" + key + "'", step);
		String status = RedisSupport.text(reply, 0);
		switch (status) {
			case "ok" -> {
				long end = RedisSupport.number(reply, 1);
				long used = RedisSupport.number(reply, 2);
				int configured = (int) RedisSupport.number(reply, 3);
				return new SegmentAllocation(key, end - used, end, configured);
			}
			case "unknown" -> throw new UnknownKeyException(key);
			case "overflow" -> throw new SegmentStoreException("key '" + key + "' is exhausted: max_id "
					+ RedisSupport.text(reply, 1) + " plus step " + RedisSupport.text(reply, 2)
					+ " would pass Long.MAX_VALUE (" + Long.MAX_VALUE + ") in Redis hash '" + record
					+ "'; use a new key");
			case "corrupt" -> throw corrupt(record, reply);
			default -> throw unexpected(record, status);
		}
	}

	@Override
	public Set<String> keys() {
		try {
			this.scripts.beforeRead();
			Set<String> keys = this.redis.opsForSet().members(this.keySet);
			return (keys != null) ? Set.copyOf(keys) : Set.of();
		}
		catch (RedisDurabilityException ex) {
			throw new SegmentStoreException("Could not list the keys in set '" + this.keySet + "': " + ex.getMessage(),
					ex);
		}
		catch (DataAccessException | IllegalStateException ex) {
			throw unreachable("list the keys in set '" + this.keySet + "'", ex);
		}
	}

	@Override
	public boolean createKey(String key, long firstId, int step, String description) {
		checkKey(key);
		if (firstId < 0) {
			throw new IllegalArgumentException("first ID of key '" + key + "' must be at least 0: " + firstId);
		}
		checkStep(key, step);
		Objects.requireNonNull(description, "description");
		String record = recordKey(key);
		List<Object> reply = execute(CREATE_KEY, List.of(record, this.keySet), "create key '" + key + "'", key,
				Long.toString(firstId), Integer.toString(step), description);
		String status = RedisSupport.text(reply, 0);
		return switch (status) {
			case "created" -> true;
			case "exists" -> false;
			case "corrupt" -> throw corrupt(this.keySet, reply);
			default -> throw unexpected(record, status);
		};
	}

	@Override
	public void updateStep(String key, int step) {
		checkKey(key);
		checkStep(key, step);
		String record = recordKey(key);
		List<Object> reply = execute(UPDATE_STEP, List.of(record), "change the step of key '" + key + "'",
				Integer.toString(step));
		String status = RedisSupport.text(reply, 0);
		switch (status) {
			case "ok" -> {
			}
			case "unknown" -> throw new UnknownKeyException(key);
			case "corrupt" -> throw corrupt(record, reply);
			default -> throw unexpected(record, status);
		}
	}

	/**
	 * Returns the Redis key of a segment key's record: {@code <prefix>segment:key:<key>}.
	 */
	String recordKey(String key) {
		return this.keyPrefix + "segment:key:" + key;
	}

	private List<Object> execute(RedisScript<List<Object>> script, List<String> keys, String action,
			Object... args) {
		try {
			return this.scripts.run(script, keys, args);
		}
		catch (RedisDurabilityException ex) {
			throw new SegmentStoreException("Could not " + action + ": " + ex.getMessage(), ex);
		}
		catch (DataAccessException | IllegalStateException ex) {
			throw unreachable(action, ex);
		}
	}

	private SegmentStoreException unreachable(String action, RuntimeException ex) {
		return new SegmentStoreException(
				this.server + " could not " + action + ": " + RedisSupport.cause(ex) + RedisSupport.advice(ex), ex);
	}

	private static SegmentStoreException corrupt(String record, List<Object> reply) {
		String field = RedisSupport.text(reply, 1);
		String target = field.isEmpty() ? "Redis key '" + record + "'"
				: "field '" + field + "' of Redis hash '" + record + "'";
		return new SegmentStoreException(target + " " + RedisSupport.text(reply, 3) + ", found '"
				+ RedisSupport.text(reply, 2) + "'; repair or delete the record (it was left unchanged)");
	}

	private static SegmentStoreException unexpected(String record, String status) {
		return new SegmentStoreException("unexpected reply '" + status + "' from the script on Redis key '" + record
				+ "'; are the Lua scripts on the classpath from the same id-starter version?");
	}

	/**
	 * Checks a segment key: 1 to {@value #MAX_KEY_LENGTH} characters from {@code A-Z a-z 0-9 . _ : -}.
	 * @param key the key
	 * @throws IllegalArgumentException if the key is not allowed
	 */
	static void checkKey(String key) {
		Objects.requireNonNull(key, "key");
		if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
			throw new IllegalArgumentException("key must be 1 to " + MAX_KEY_LENGTH + " characters long, was "
					+ key.length() + ": '" + key + "'");
		}
		for (int i = 0; i < key.length(); i++) {
			char c = key.charAt(i);
			if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
					|| c == ':' || c == '-')) {
				throw new IllegalArgumentException("key '" + key + "' has character '" + c + "' at index " + i
						+ "; allowed are A-Z a-z 0-9 . _ : -");
			}
		}
	}

	private static void checkStep(String key, int step) {
		if (step < 1) {
			throw new IllegalArgumentException("step of key '" + key + "' must be at least 1: " + step);
		}
	}

}
