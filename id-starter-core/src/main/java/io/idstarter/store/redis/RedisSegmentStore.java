package io.idstarter.store.redis;

import java.security.SecureRandom;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import io.idstarter.segment.RangeReceipts;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentKeys;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentKeyExhaustedException;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.UnknownKeyException;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * A {@link SegmentStore} in Redis: one hash per key ({@code max_id}, {@code step}, {@code description},
 * {@code update_time}, as in Leaf's {@code leaf_alloc} table, and the numbers of its allocations, counted from a
 * random start, which tie a give-back to the allocation of its range) and a set of all keys, each operation one Lua
 * script.
 *
 * <p>Keys are {@code <prefix>segment:key:<key>} and {@code <prefix>segment:keys}. Segment keys, steps and first IDs
 * follow {@link SegmentKeys}. On Redis Cluster, give a prefix with a hash
 * tag (for example {@code {id-starter}:}) so that creating a key, which writes two Redis keys, stays in one slot.
 *
 * @see RedisLeaseStore
 */
public class RedisSegmentStore implements SegmentStore, SegmentKeyAdmin {

	private static final RedisScript<List<Object>> ALLOCATE = RedisSupport.script("segment-allocate.lua");

	private static final RedisScript<List<Object>> CREATE_KEY = RedisSupport.script("segment-create-key.lua");

	private static final RedisScript<List<Object>> UPDATE_STEP = RedisSupport.script("segment-update-step.lua");

	private static final RedisScript<List<Object>> RAISE = RedisSupport.script("segment-raise.lua");

	private static final RedisScript<List<Object>> GIVE_BACK = RedisSupport.script("segment-give-back.lua");

	private static final RedisScript<List<Object>> DELETE_KEY = RedisSupport.script("segment-delete-key.lua");

	private static final RedisScript<List<Object>> KEYS_MARKER = RedisSupport.script("segment-keys-marker.lua");

	/** Bound (exclusive) of the random start of a key's allocation numbers: 2^62 numbers of room above it. */
	private static final long ALLOCATION_START_BOUND = 1L << 62;

	/** Draws the start of a key's allocation numbers and the key list's versions, unrelated across processes. */
	private static final SecureRandom random = new SecureRandom();

	private final StringRedisTemplate redis;

	/** The number the allocate script gave each of the latest ranges per key, which their give-back must name. */
	private final RangeReceipts<String> allocations = RangeReceipts.withDefaultBounds();

	private final RedisScriptRunner scripts;

	private final String keyPrefix;

	private final String keySet;

	/** A random token the scripts replace at every change of {@code keySet}: with its size, the key list's marker. */
	private final String keysVersion;

	private final String server;

	/** What {@link #identity()} answers; fixed by the factory and the prefix. */
	private final String identity;

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
		this.keysVersion = keyPrefix + "segment:keys:version";
		this.redis = new StringRedisTemplate(factory);
		this.server = RedisSupport.describe(factory);
		this.identity = RedisSupport.identity("Redis segment store", factory, this.keyPrefix);
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
		SegmentKeys.checkKey(key);
		return allocate(key, "");
	}

	@Override
	public SegmentAllocation allocate(String key, int step) {
		SegmentKeys.checkKey(key);
		SegmentKeys.checkStep(key, step);
		return allocate(key, Integer.toString(step));
	}

	/**
	 * Allocates a range; a key's allocations are numbered from a random start (drawn here, used by the script only for
	 * a key that has none yet), so that the numbers of a key deleted and created again never meet those a node still
	 * holds of its earlier life: two random starts come within 10,000 allocations of each other once in about
	 * 2 * 10^14 recreations of a key.
	 */
	private SegmentAllocation allocate(String key, String step) {
		String record = recordKey(key);
		List<Object> reply = execute(ALLOCATE, List.of(record), "allocate a range of key '" + key + "'", step,
				Long.toString(random.nextLong(1, ALLOCATION_START_BOUND)));
		String status = RedisSupport.text(reply, 0);
		switch (status) {
			case "ok" -> {
				long end = RedisSupport.number(reply, 1);
				long used = RedisSupport.number(reply, 2);
				int configured = (int) RedisSupport.number(reply, 3);
				this.allocations.put(key, end, RedisSupport.text(reply, 4));
				return new SegmentAllocation(key, end - used, end, configured);
			}
			case "unknown" -> throw new UnknownKeyException(key);
			case "overflow" -> throw new SegmentKeyExhaustedException(key, "key '" + key + "' is exhausted: max_id "
					+ RedisSupport.text(reply, 1) + " plus step " + RedisSupport.text(reply, 2)
					+ " would pass Long.MAX_VALUE (" + Long.MAX_VALUE + ") in Redis hash '" + record
					+ "'; use a new key", Long.MAX_VALUE - RedisSupport.number(reply, 1));
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

	/**
	 * Returns the number of keys in the set and the set's version, a random token that {@link #createKey} and
	 * {@link #deleteKey} replace at every change; one round trip, whatever the number of keys. A token, not a counter:
	 * after a failover to a replica that missed a change, the next change would bring a counter back to a value it
	 * had with another list of the same size. A key added or removed by hand changes the number; a key removed and
	 * another added by hand within one key refresh change neither unless the version is replaced too
	 * ({@code SET <prefix>segment:keys:version <anything new>}, see docs/redis.md); without that, the added key is
	 * still found when first asked for ({@link #containsKey}) and the removed one dropped when a fetch finds it gone.
	 * @return the marker
	 */
	@Override
	public String keysMarker() {
		try {
			this.scripts.beforeRead();
			List<Object> reply = this.redis.execute(KEYS_MARKER, List.of(this.keySet, this.keysVersion));
			if (reply == null || reply.size() != 2) {
				throw unexpected(this.keySet, String.valueOf(reply));
			}
			return RedisSupport.text(reply, 0) + ":" + RedisSupport.text(reply, 1);
		}
		catch (RedisDurabilityException ex) {
			throw new SegmentStoreException("Could not read the marker of the keys in set '" + this.keySet + "': "
					+ ex.getMessage(), ex);
		}
		catch (DataAccessException | IllegalStateException ex) {
			throw unreachable("read the marker of the keys in set '" + this.keySet + "'", ex);
		}
	}

	/**
	 * Answers whether the set of keys holds the key: one {@code SISMEMBER}, whatever the number of keys.
	 */
	@Override
	public boolean containsKey(String key) {
		try {
			this.scripts.beforeRead();
			return Boolean.TRUE.equals(this.redis.opsForSet().isMember(this.keySet, key));
		}
		catch (RedisDurabilityException ex) {
			throw new SegmentStoreException("Could not look up key '" + key + "' in set '" + this.keySet + "': "
					+ ex.getMessage(), ex);
		}
		catch (DataAccessException | IllegalStateException ex) {
			throw unreachable("look up key '" + key + "' in set '" + this.keySet + "'", ex);
		}
	}

	@Override
	public boolean createKey(String key, long firstId, int step, String description) {
		SegmentKeys.checkNewKey(key, firstId, step, description);
		String record = recordKey(key);
		List<Object> reply = execute(CREATE_KEY, List.of(record, this.keySet, this.keysVersion),
				"create key '" + key + "'", key, Long.toString(firstId), Integer.toString(step), description,
				newVersion());
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
		SegmentKeys.checkKey(key);
		SegmentKeys.checkStep(key, step);
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

	@Override
	public String identity() {
		return this.identity;
	}

	@Override
	public boolean deletesKeys() {
		return true;
	}

	@Override
	public @Nullable String description(String key) {
		SegmentKeys.checkKey(key);
		String record = recordKey(key);
		try {
			this.scripts.beforeRead();
			if (!Boolean.TRUE.equals(this.redis.hasKey(record))) {
				return null;
			}
			Object description = this.redis.opsForHash().get(record, "description");
			return (description != null) ? description.toString() : "";
		}
		catch (RedisDurabilityException ex) {
			throw new SegmentStoreException("Could not read hash '" + record + "': " + ex.getMessage(), ex);
		}
		catch (DataAccessException | IllegalStateException ex) {
			throw unreachable("read the description of key '" + key + "' in hash '" + record + "'", ex);
		}
	}

	/**
	 * Gives back a tail of a range this store allocated, naming the range's allocation, so that a script Lettuce sends
	 * again after a reconnect (its default is at-least-once) cannot take back a later allocation that ended at the
	 * same {@code max_id}; {@code false} without a call for a range this store did not allocate, or gave back already.
	 */
	@Override
	public boolean giveBack(String key, long cursor, long end) {
		SegmentKeys.checkGiveBack(key, cursor, end);
		String allocation = this.allocations.take(key, end);
		if (allocation == null) {
			return false;
		}
		List<Object> reply = execute(GIVE_BACK, List.of(recordKey(key)),
				"give back [" + cursor + ", " + end + ") of key '" + key + "'", Long.toString(cursor),
				Long.toString(end), allocation);
		return "given".equals(RedisSupport.text(reply, 0));
	}

	@Override
	public boolean raiseMaxId(String key, long floor) {
		SegmentKeys.checkKey(key);
		String record = recordKey(key);
		List<Object> reply = execute(RAISE, List.of(record), "raise the max_id of key '" + key + "' to " + floor,
				Long.toString(floor));
		String status = RedisSupport.text(reply, 0);
		return switch (status) {
			case "raised" -> true;
			case "kept" -> false;
			case "unknown" -> throw new UnknownKeyException(key);
			case "corrupt" -> throw corrupt(record, reply);
			default -> throw unexpected(record, status);
		};
	}

	@Override
	public boolean deleteKey(String key) {
		SegmentKeys.checkKey(key);
		String record = recordKey(key);
		List<Object> reply = execute(DELETE_KEY, List.of(record, this.keySet, this.keysVersion),
				"delete key '" + key + "'", key, newVersion());
		String status = RedisSupport.text(reply, 0);
		return switch (status) {
			case "deleted" -> true;
			case "unknown" -> false;
			default -> throw unexpected(record, status);
		};
	}

	/** A version of the key list no change has had: a random token. */
	private static String newVersion() {
		return new UUID(random.nextLong(), random.nextLong()).toString();
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

}
