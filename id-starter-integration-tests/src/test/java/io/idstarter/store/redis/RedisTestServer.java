package io.idstarter.store.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.idstarter.testsupport.TestBackends;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.Delay;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A Lettuce connection to the shared test Redis with short timeouts, and a random key prefix whose keys it deletes on
 * {@link #close()} (by {@code SCAN}, never {@code FLUSHDB}: other builds use the same server).
 */
final class RedisTestServer implements AutoCloseable {

	/** Lettuce's command timeout in these tests: long enough for a busy machine, short enough for outage tests. */
	static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(1);

	final String prefix = "idstarter-test-" + UUID.randomUUID().toString().substring(0, 8) + ":";

	final LettuceConnectionFactory factory;

	final StringRedisTemplate redis;

	private final ClientResources resources;

	private final List<LettuceConnectionFactory> factories = new ArrayList<>();

	RedisTestServer() {
		this.resources = ClientResources.builder().reconnectDelay(Delay.constant(Duration.ofMillis(100))).build();
		TestBackends.RedisBackend backend = TestBackends.redis();
		this.factory = connect(backend.host(), backend.port());
		this.redis = new StringRedisTemplate(this.factory);
	}

	/**
	 * Opens another connection factory, for example through a {@code TcpProxy}; closed with this server.
	 */
	LettuceConnectionFactory connect(String host, int port) {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.clientResources(this.resources)
			.clientOptions(ClientOptions.builder()
				.socketOptions(SocketOptions.builder().connectTimeout(Duration.ofMillis(500)).build())
				.build())
			.commandTimeout(COMMAND_TIMEOUT)
			.shutdownQuietPeriod(Duration.ZERO)
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port),
				client);
		factory.afterPropertiesSet();
		this.factories.add(factory);
		return factory;
	}

	/**
	 * Returns Redis's clock ({@code TIME}) in milliseconds.
	 */
	long redisTimeMillis() {
		Long time = this.redis.execute((RedisCallback<Long>) (connection) -> connection.serverCommands().time());
		return time;
	}

	@Override
	public void close() {
		List<String> keys = new ArrayList<>();
		try (Cursor<String> cursor = this.redis.scan(ScanOptions.scanOptions().match(this.prefix + "*").count(1000)
			.build())) {
			cursor.forEachRemaining(keys::add);
		}
		if (!keys.isEmpty()) {
			this.redis.delete(keys);
		}
		this.factories.forEach(LettuceConnectionFactory::destroy);
		this.resources.shutdown(0, 1, java.util.concurrent.TimeUnit.SECONDS);
	}

}
