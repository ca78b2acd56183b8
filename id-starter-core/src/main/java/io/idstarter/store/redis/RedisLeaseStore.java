package io.idstarter.store.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.WorkerLease;
import io.idstarter.snowflake.RecordedLayout;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * An {@link ISequenceManager} in Redis: one hash per namespace holds every slot's owner token, expiry and timestamp
 * high-water mark, and each borrow, renewal and release is one Lua script timed by Redis's own clock ({@code TIME}).
 *
 * <p>The hash is {@code <prefix>lease:<namespace>}, with one field per slot named by its worker ID, whose value is
 * {@code <expires_at> <max_timestamp> <timestamp_floor> <owner> <instance>} (times in ms by Redis's clock; owner
 * {@code -} once released). Expiry is part of that value, never a key TTL: a slot must keep its high-water mark after
 * its lease ends, or a new owner could reuse timestamps. Needs Redis 5 or later (scripts that call {@code TIME}
 * before writing).
 *
 * <p>A namespace's layout record ({@link #recordLayout}) is a string key of its own, {@code <prefix>layout:<namespace>},
 * holding the layout's stored form; the hash of slots never has a field for it, so no slot script sees it. Each
 * layout call is one script on that one key (on Redis Cluster it needs no hash tag of its own), and the marks are read
 * by one script on the hash, by Redis's clock.
 *
 * <p>The borrow script keeps {@link io.idstarter.lease.SlotOrder}'s order itself, since one script is the store's one
 * atomic step; the contract kit checks it as it checks every store's.
 *
 * <p>Timestamps and TTLs must stay below 2<sup>53</sup> ms (Lua numbers are doubles); a renewal of a lease that
 * expired succeeds as long as no other node has taken the slot since.
 *
 * @see RedisSegmentStore
 */
public class RedisLeaseStore implements ISequenceManager {

	/** Greatest timestamp the store accepts: 2^53 - 1 ms, where Lua's double-precision numbers stop being exact. */
	public static final long MAX_TIMESTAMP = (1L << 53) - 1;

	/** Longest lease TTL accepted; leases normally last seconds. */
	public static final Duration MAX_TTL = Duration.ofDays(365);

	private static final Logger logger = LoggerFactory.getLogger(RedisLeaseStore.class);

	/** Functions the lease scripts share (slot format, ownership check, server clock), put in front of each. */
	private static final String SLOT_FUNCTIONS = "lease-slot.lua";

	private static final RedisScript<List<Object>> BORROW = RedisSupport.script(SLOT_FUNCTIONS, "lease-borrow.lua");

	private static final RedisScript<List<Object>> RENEW = RedisSupport.script(SLOT_FUNCTIONS, "lease-renew.lua");

	private static final RedisScript<List<Object>> RELEASE = RedisSupport.script(SLOT_FUNCTIONS, "lease-release.lua");

	private static final RedisScript<List<Object>> MARKS = RedisSupport.script(SLOT_FUNCTIONS, "lease-marks.lua");

	private static final RedisScript<List<Object>> RECORD_LAYOUT = RedisSupport.script("lease-layout-record.lua");

	private static final RedisScript<List<Object>> READ_LAYOUT = RedisSupport.script("lease-layout-read.lua");

	private static final RedisScript<List<Object>> REPLACE_LAYOUT = RedisSupport.script("lease-layout-replace.lua");

	private final RedisScriptRunner scripts;

	private final String keyPrefix;

	private final String server;

	/** What {@link #identity()} answers; fixed by the factory and the prefix. */
	private final String identity;

	/**
	 * Creates a manager with the key prefix {@code id-starter:} that demands no durability of the server
	 * ({@link RedisDurability#unchecked()}).
	 * @param factory connections to Redis (started, or started before the first call)
	 */
	public RedisLeaseStore(RedisConnectionFactory factory) {
		this(factory, RedisSupport.DEFAULT_KEY_PREFIX);
	}

	/**
	 * Creates a manager that demands no durability of the server ({@link RedisDurability#unchecked()}).
	 * @param factory connections to Redis (started, or started before the first call)
	 * @param keyPrefix prefix of every Redis key the manager writes, not empty
	 */
	public RedisLeaseStore(RedisConnectionFactory factory, String keyPrefix) {
		this(factory, keyPrefix, RedisDurability.unchecked());
	}

	/**
	 * Creates a manager.
	 * @param factory connections to Redis (started, or started before the first call)
	 * @param keyPrefix prefix of every Redis key the manager writes, not empty
	 * @param durability what the server must keep, and how many replicas must acknowledge each write; a call that
	 * does not get it fails with a {@link LeaseStoreException} whose cause is a {@link RedisDurabilityException}
	 */
	public RedisLeaseStore(RedisConnectionFactory factory, String keyPrefix, RedisDurability durability) {
		Objects.requireNonNull(factory, "factory");
		this.keyPrefix = RedisSupport.requireKeyPrefix(keyPrefix);
		this.server = RedisSupport.describe(factory);
		this.identity = RedisSupport.identity("Redis lease store", factory, this.keyPrefix);
		this.scripts = new RedisScriptRunner(new StringRedisTemplate(factory), durability, this.server);
	}

	/**
	 * Returns what this store demands of the server.
	 * @return the durability given at construction
	 */
	public RedisDurability durability() {
		return this.scripts.durability();
	}

	@Override
	public String identity() {
		return this.identity;
	}

	@Override
	public WorkerLease borrow(LeaseRequest request) {
		Objects.requireNonNull(request, "request");
		long ttl = ttlMillis(request.ttl());
		checkTimestamp("timestampCeiling", request.timestampCeiling(), 0);
		String namespace = request.namespace();
		String hash = namespaceKey(namespace);
		String token = UUID.randomUUID().toString();
		List<Object> reply = execute(BORROW, hash, "borrow a worker id of namespace '" + namespace + "'",
				Integer.toString(request.maxWorkerId()), Long.toString(ttl),
				Integer.toString(request.preferredWorkerId()), token, request.instance(),
				Long.toString(request.timestampCeiling()), excluded(request));
		String status = RedisSupport.text(reply, 0);
		switch (status) {
			case "ok" -> {
				return new WorkerLease(namespace, (int) RedisSupport.number(reply, 1), token, request.ttl(),
						RedisSupport.number(reply, 2), RedisSupport.number(reply, 3), RedisSupport.number(reply, 4));
			}
			case "full" -> throw NoFreeWorkerIdException.allHeld(request, store(hash));
			case "corrupt" -> throw corrupt(hash, reply);
			default -> throw unexpected(hash, status);
		}
	}

	/** The request's excluded worker IDs as the borrow script reads them: comma-separated, empty for none. */
	private static String excluded(LeaseRequest request) {
		StringBuilder list = new StringBuilder();
		for (int workerId : request.excludedWorkerIds()) {
			list.append((list.length() > 0) ? "," : "").append(workerId);
		}
		return list.toString();
	}

	@Override
	public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
		Objects.requireNonNull(lease, "lease");
		checkWorkerId(lease);
		long ttl = ttlMillis(lease.ttl());
		checkTimestamp("timestampCeiling", timestampCeiling, 0);
		String hash = namespaceKey(lease.namespace());
		List<Object> reply = execute(RENEW, hash,
				"renew worker id " + lease.workerId() + " of namespace '" + lease.namespace() + "'",
				Integer.toString(lease.workerId()), lease.ownerToken(), Long.toString(ttl),
				Long.toString(timestampCeiling));
		String status = RedisSupport.text(reply, 0);
		switch (status) {
			case "ok" -> {
				return new WorkerLease(lease.namespace(), lease.workerId(), lease.ownerToken(), lease.ttl(),
						RedisSupport.number(reply, 1), RedisSupport.number(reply, 2), RedisSupport.number(reply, 3));
			}
			case "lost" -> {
				throw LeaseLostException.notHeld(lease, store(hash), "free".equals(RedisSupport.text(reply, 1))
						? "it was released" : "instance '" + RedisSupport.text(reply, 2) + "' holds it until "
								+ RedisSupport.text(reply, 3) + " ms (Redis time)");
			}
			case "corrupt" -> throw corrupt(hash, reply);
			default -> throw unexpected(hash, status);
		}
	}

	@Override
	public void release(WorkerLease lease, long lastIssuedTimestamp) {
		Objects.requireNonNull(lease, "lease");
		checkWorkerId(lease);
		if (lastIssuedTimestamp != -1) {
			checkTimestamp("lastIssuedTimestamp", lastIssuedTimestamp, 0);
		}
		String hash = namespaceKey(lease.namespace());
		List<Object> reply = execute(RELEASE, hash,
				"release worker id " + lease.workerId() + " of namespace '" + lease.namespace() + "'",
				Integer.toString(lease.workerId()), lease.ownerToken(), Long.toString(lastIssuedTimestamp));
		String status = RedisSupport.text(reply, 0);
		switch (status) {
			case "ok" -> {
			}
			case "lost" -> logger.warn("Worker id {} of namespace '{}' was not released: it is no longer held "
					+ "with this lease's owner token ({}; hash '{}'); nothing was changed", lease.workerId(),
					lease.namespace(), "free".equals(RedisSupport.text(reply, 1)) ? "the slot is free"
							: "instance '" + RedisSupport.text(reply, 2) + "' holds it",
					hash);
			case "corrupt" -> throw corrupt(hash, reply);
			default -> throw unexpected(hash, status);
		}
	}

	@Override
	public String recordLayout(String namespace, String layout) {
		Objects.requireNonNull(namespace, "namespace");
		RecordedLayout.requireStorable("layout", layout);
		String key = layoutKey(namespace);
		List<Object> reply = execute(RECORD_LAYOUT, key, "record the layout of namespace '" + namespace + "'",
				layout);
		String status = RedisSupport.text(reply, 0);
		return switch (status) {
			case "created", "found" -> recorded(key, namespace, reply);
			case "corrupt" -> throw corruptLayout(key, reply);
			default -> throw unexpected(key, status);
		};
	}

	private String recorded(String key, String namespace, List<Object> reply) {
		String recorded = RedisSupport.text(reply, 1);
		if (recorded.isEmpty()) {
			throw new LeaseStoreException("Redis key '" + key + "' on " + this.server + " is an empty string, "
					+ "not a layout record; delete it and restart a node of namespace '" + namespace
					+ "' to record its layout again");
		}
		return recorded;
	}

	@Override
	public @Nullable String readLayout(String namespace) {
		Objects.requireNonNull(namespace, "namespace");
		String key = layoutKey(namespace);
		List<Object> reply = execute(READ_LAYOUT, key, "read the layout of namespace '" + namespace + "'");
		String status = RedisSupport.text(reply, 0);
		return switch (status) {
			case "found" -> recorded(key, namespace, reply);
			case "absent" -> null;
			case "corrupt" -> throw corruptLayout(key, reply);
			default -> throw unexpected(key, status);
		};
	}

	@Override
	public boolean replaceLayout(String namespace, String expected, String replacement) {
		Objects.requireNonNull(namespace, "namespace");
		Objects.requireNonNull(expected, "expected");
		RecordedLayout.requireStorable("replacement", replacement);
		String key = layoutKey(namespace);
		List<Object> reply = execute(REPLACE_LAYOUT, key, "replace the layout of namespace '" + namespace + "'",
				expected, replacement);
		String status = RedisSupport.text(reply, 0);
		return switch (status) {
			case "ok" -> {
				logger.info("Replaced the layout of namespace '{}' (Redis key '{}'): {} (was {})", namespace, key,
						replacement, expected);
				yield true;
			}
			case "absent", "other" -> false;
			case "corrupt" -> throw corruptLayout(key, reply);
			default -> throw unexpected(key, status);
		};
	}

	@Override
	public List<SlotMark> slotMarks(String namespace) {
		Objects.requireNonNull(namespace, "namespace");
		String hash = namespaceKey(namespace);
		List<Object> reply = execute(MARKS, hash, "read the slot marks of namespace '" + namespace + "'");
		String status = RedisSupport.text(reply, 0);
		switch (status) {
			case "slots" -> {
				List<SlotMark> marks = new ArrayList<>();
				for (int i = 1; i + 2 < reply.size(); i += 3) {
					marks.add(new SlotMark((int) RedisSupport.number(reply, i), RedisSupport.number(reply, i + 1),
							RedisSupport.number(reply, i + 2) == 1));
				}
				return marks;
			}
			case "corrupt" -> throw corrupt(hash, reply);
			default -> throw unexpected(hash, status);
		}
	}

	/** Where a namespace's slots are, in messages. */
	private String store(String hash) {
		return this.server + ", hash '" + hash + "'";
	}

	/**
	 * Returns the Redis key of a namespace's hash: {@code <prefix>lease:<namespace>}.
	 */
	String namespaceKey(String namespace) {
		return this.keyPrefix + "lease:" + namespace;
	}

	/**
	 * Returns the Redis key of a namespace's layout record: {@code <prefix>layout:<namespace>}.
	 */
	String layoutKey(String namespace) {
		return this.keyPrefix + "layout:" + namespace;
	}

	private List<Object> execute(RedisScript<List<Object>> script, String hash, String action, Object... args) {
		try {
			return this.scripts.run(script, List.of(hash), args);
		}
		catch (RedisDurabilityException ex) {
			throw new LeaseStoreException("Could not " + action + ": " + ex.getMessage(), ex);
		}
		catch (DataAccessException | IllegalStateException ex) {
			throw new LeaseStoreException(
					this.server + " could not " + action + ": " + RedisSupport.cause(ex) + RedisSupport.advice(ex), ex);
		}
	}

	private static LeaseStoreException corrupt(String hash, List<Object> reply) {
		String field = RedisSupport.text(reply, 1);
		String target = field.isEmpty() ? "Redis key '" + hash + "'"
				: "field '" + field + "' of Redis hash '" + hash + "'";
		return new LeaseStoreException(target + " " + RedisSupport.text(reply, 3) + ", found '"
				+ RedisSupport.text(reply, 2) + "'; repair it by hand (it was left unchanged; deleting a slot "
				+ "loses its timestamp high-water mark)");
	}

	private LeaseStoreException corruptLayout(String key, List<Object> reply) {
		return new LeaseStoreException("Redis key '" + key + "' on " + this.server + " is a "
				+ RedisSupport.text(reply, 2) + " but " + RedisSupport.text(reply, 3)
				+ "; it was left unchanged: if something else wrote it, use another key prefix for id-starter, "
				+ "otherwise delete it and restart a node of the namespace to record its layout again");
	}

	private static LeaseStoreException unexpected(String hash, String status) {
		return new LeaseStoreException("unexpected reply '" + status + "' from the script on Redis key '" + hash
				+ "'; are the Lua scripts on the classpath from the same id-starter version?");
	}

	private static long ttlMillis(Duration ttl) {
		if (ttl.compareTo(Duration.ofSeconds(1)) < 0 || ttl.compareTo(MAX_TTL) > 0) {
			throw new IllegalArgumentException("ttl must be in [1s, " + MAX_TTL.toDays() + "d]: " + ttl);
		}
		return ttl.toMillis();
	}

	private static void checkTimestamp(String name, long value, long least) {
		if (value < least || value > MAX_TIMESTAMP) {
			throw new IllegalArgumentException(
					name + " must be in [" + least + ", " + MAX_TIMESTAMP + "] ms for the Redis store: " + value);
		}
	}

	private static void checkWorkerId(WorkerLease lease) {
		if (lease.workerId() < 0) {
			throw new IllegalArgumentException("workerId of a lease must not be negative: " + lease.workerId());
		}
	}

}
