package io.idstarter.store.redis;

import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;

import org.springframework.data.redis.connection.DecoratedRedisConnection;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.lettuce.LettuceConnection;

/**
 * Sends {@code WAIT} on a Lettuce connection with an integer output: Spring Data types replies of commands it does
 * not know as byte arrays, which Lettuce cannot fill with an integer. Loaded only when the connection is Lettuce's.
 */
final class LettuceWait {

	private LettuceWait() {
	}

	static boolean applies(RedisConnection connection) {
		return unwrap(connection) instanceof LettuceConnection;
	}

	static Object await(RedisConnection connection, byte[] replicas, byte[] timeout) {
		return ((LettuceConnection) unwrap(connection)).execute("WAIT", new IntegerOutput<>(ByteArrayCodec.INSTANCE),
				replicas, timeout);
	}

	/** The driver's connection behind Spring's decorators (a {@code StringRedisTemplate} wraps it in one). */
	private static RedisConnection unwrap(RedisConnection connection) {
		RedisConnection target = connection;
		while (target instanceof DecoratedRedisConnection decorated) {
			target = decorated.getDelegate();
		}
		return target;
	}

}
