package io.idstarter.store.redis;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StreamUtils;

/**
 * What the Redis stores share: their scripts, how they name the server in messages, and how they read script results.
 */
final class RedisSupport {

	/** Default prefix of every key the stores write. */
	static final String DEFAULT_KEY_PREFIX = "id-starter:";

	private RedisSupport() {
	}

	static String requireKeyPrefix(String keyPrefix) {
		return RedisKeyPrefix.check(keyPrefix);
	}

	/**
	 * Loads a script from this package's resources, the files one after the other (a Lua script cannot include
	 * another, so shared functions go in a file put in front). Spring Data sends it by SHA-1 ({@code EVALSHA}) and
	 * falls back to {@code EVAL} when the server does not have it cached.
	 * @throws IllegalStateException if a file is missing, at construction
	 */
	@SuppressWarnings({ "unchecked", "rawtypes" })
	static RedisScript<List<Object>> script(String... names) {
		StringBuilder text = new StringBuilder();
		for (String name : names) {
			try (InputStream in = new ClassPathResource(name, RedisSupport.class).getInputStream()) {
				text.append(StreamUtils.copyToString(in, StandardCharsets.UTF_8));
			}
			catch (IOException ex) {
				throw new IllegalStateException("Redis script " + name + " is missing from the class path", ex);
			}
		}
		RedisScript<List> script = RedisScript.of(text.toString(), List.class);
		return (RedisScript<List<Object>>) (RedisScript) script;
	}

	/**
	 * Describes why a call to Redis failed: Spring's message and, when it says more, the client's own.
	 */
	static String cause(RuntimeException ex) {
		String message = ex.getMessage();
		Throwable root = NestedExceptionUtils.getMostSpecificCause(ex);
		if (root != ex && root.getMessage() != null && (message == null || !message.contains(root.getMessage()))) {
			return message + " (" + root.getMessage() + ")";
		}
		return String.valueOf(message);
	}

	/**
	 * Says what to do about a failed call: on Redis Cluster, keys of one script in different hash slots (CROSSSLOT)
	 * mean the key prefix needs a hash tag; anything else is most likely the connection.
	 */
	static String advice(RuntimeException ex) {
		if (cause(ex).contains("CROSSSLOT")) {
			return "; on Redis Cluster all keys of a store must be in one hash slot: use a key prefix with a hash tag, "
					+ "for example '{id-starter}:' (id-worker.redis.key-prefix)";
		}
		return "; check that Redis is reachable and the connection settings";
	}

	static String text(List<Object> reply, int index) {
		return String.valueOf(reply.get(index));
	}

	static long number(List<Object> reply, int index) {
		Object value = reply.get(index);
		return (value instanceof Long number) ? number : Long.parseLong(String.valueOf(value));
	}

	/**
	 * Names a store's key space for the node's files ({@code identity()} of the stores): the server (a cluster or a
	 * sentinel master without its nodes, which change as it grows), the database number when it is not 0 (two
	 * deployments on one server may differ only by it), and the key prefix.
	 * @param store what the store is, such as {@code Redis lease store}
	 */
	static String identity(String store, RedisConnectionFactory factory, String keyPrefix) {
		String database = "";
		try {
			Object number = call(factory, "getDatabase");
			if (number instanceof Integer index && index != 0) {
				database = ", database " + index;
			}
		}
		catch (RuntimeException ex) {
			// Not a factory we know: the server and prefix still name the key space.
		}
		return store + " at " + server(factory) + database + ", key prefix " + keyPrefix;
	}

	private static String server(RedisConnectionFactory factory) {
		try {
			if (call(factory, "getClusterConfiguration") instanceof RedisClusterConfiguration) {
				return "a Redis cluster";
			}
			if (call(factory, "getSentinelConfiguration") instanceof RedisSentinelConfiguration configuration
					&& configuration.getMaster() != null) {
				return "Redis sentinel master '" + configuration.getMaster().getName() + "'";
			}
		}
		catch (RuntimeException ex) {
			// Not a factory we know: describe it as for messages.
		}
		return describe(factory);
	}

	/**
	 * Names the server a connection factory talks to, for error messages: {@code Redis at host:port}, or the
	 * cluster or sentinel nodes. Works for Lettuce and Jedis without loading either.
	 */
	static String describe(RedisConnectionFactory factory) {
		try {
			Object cluster = call(factory, "getClusterConfiguration");
			if (cluster instanceof RedisClusterConfiguration configuration) {
				return "Redis cluster at " + configuration.getClusterNodes();
			}
			Object sentinel = call(factory, "getSentinelConfiguration");
			if (sentinel instanceof RedisSentinelConfiguration configuration) {
				String master = (configuration.getMaster() != null) ? configuration.getMaster().getName() : null;
				return "Redis sentinel master '" + master + "' at " + configuration.getSentinels();
			}
			Object host = call(factory, "getHostName");
			Object port = call(factory, "getPort");
			if (host != null && port != null) {
				return "Redis at " + host + ":" + port;
			}
		}
		catch (RuntimeException ex) {
			// Not a factory we know: fall back to its type.
		}
		return "Redis (" + factory.getClass().getSimpleName() + ")";
	}

	private static @Nullable Object call(Object target, String getter) {
		Method method = ReflectionUtils.findMethod(target.getClass(), getter);
		return (method != null) ? ReflectionUtils.invokeMethod(method, target) : null;
	}

}
