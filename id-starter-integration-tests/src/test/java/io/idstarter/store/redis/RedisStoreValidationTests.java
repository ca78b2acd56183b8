package io.idstarter.store.redis;

import java.lang.reflect.Proxy;
import java.time.Duration;

import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.WorkerLease;
import io.idstarter.segment.SegmentStoreException;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Arguments the Redis stores reject before they talk to Redis, and how they report a server that is not there. The
 * factory points at a port where nothing listens, so a call that reached the network would fail differently.
 */
class RedisStoreValidationTests {

	private static final Duration TTL = Duration.ofSeconds(10);

	private static LettuceConnectionFactory nowhere;

	private static RedisSegmentStore store;

	private static RedisLeaseStore manager;

	@BeforeAll
	static void connect() {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.clientOptions(ClientOptions.builder()
				.socketOptions(SocketOptions.builder().connectTimeout(Duration.ofMillis(500)).build())
				.build())
			.commandTimeout(Duration.ofSeconds(1))
			.shutdownQuietPeriod(Duration.ZERO)
			.build();
		nowhere = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", 1), client);
		nowhere.afterPropertiesSet();
		store = new RedisSegmentStore(nowhere, "test:");
		manager = new RedisLeaseStore(nowhere, "test:");
	}

	@AfterAll
	static void close() {
		nowhere.destroy();
	}

	@Test
	void anEmptyKeyPrefixIsRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> new RedisSegmentStore(nowhere, ""))
			.withMessageContaining("keyPrefix");
		assertThatIllegalArgumentException().isThrownBy(() -> new RedisLeaseStore(nowhere, ""))
			.withMessageContaining("keyPrefix");
	}

	@Test
	void timestampsThatLuaCannotHoldExactlyAreRejected() {
		LeaseRequest beyond = new LeaseRequest("app", 15, TTL, -1, "host", RedisLeaseStore.MAX_TIMESTAMP + 1);
		assertThatIllegalArgumentException().isThrownBy(() -> manager.borrow(beyond))
			.withMessageContaining("timestampCeiling must be in [0, 9007199254740991]");
		LeaseRequest negative = new LeaseRequest("app", 15, TTL, -1, "host", -1);
		assertThatIllegalArgumentException().isThrownBy(() -> manager.borrow(negative));
		WorkerLease lease = new WorkerLease("app", 0, "token", TTL, -1, 0, 0);
		assertThatIllegalArgumentException().isThrownBy(() -> manager.renew(lease, Long.MAX_VALUE));
		assertThatIllegalArgumentException().isThrownBy(() -> manager.release(lease, -2))
			.withMessageContaining("lastIssuedTimestamp");
	}

	@Test
	void ttlsOutsideOneSecondToAYearAreRejected() {
		LeaseRequest tooLong = new LeaseRequest("app", 15, Duration.ofDays(366), -1, "host", 0);
		assertThatIllegalArgumentException().isThrownBy(() -> manager.borrow(tooLong))
			.withMessageContaining("ttl must be in [1s, 365d]");
		WorkerLease tooShort = new WorkerLease("app", 0, "token", Duration.ofMillis(10), -1, 0, 0);
		assertThatIllegalArgumentException().isThrownBy(() -> manager.renew(tooShort, 0));
	}

	@Test
	void aLeaseWithANegativeWorkerIdIsRejected() {
		WorkerLease lease = new WorkerLease("app", -1, "token", TTL, -1, 0, 0);
		assertThatIllegalArgumentException().isThrownBy(() -> manager.renew(lease, 0));
		assertThatIllegalArgumentException().isThrownBy(() -> manager.release(lease, 0));
	}

	@Test
	void anUnreachableServerIsNamedInTheStoreExceptions() {
		assertThatExceptionOfType(SegmentStoreException.class).isThrownBy(() -> store.allocate("orders"))
			.withMessageStartingWith("Redis at 127.0.0.1:1 could not allocate a range of key 'orders': ")
			.withMessageContaining("check that Redis is reachable");
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> manager.borrow(new LeaseRequest("app", 15, TTL, -1, "host", 0)))
			.withMessageStartingWith("Redis at 127.0.0.1:1 could not borrow a worker id of namespace 'app': ");
	}

	@Test
	void aClusterFactoryIsDescribedByItsNodesAndAnUnknownOneByItsType() {
		LettuceConnectionFactory cluster = new LettuceConnectionFactory(
				new RedisClusterConfiguration(java.util.List.of("10.0.0.1:7000", "10.0.0.2:7000")));
		assertThat(RedisSupport.describe(cluster)).startsWith("Redis cluster at ").contains("10.0.0.1:7000");
		RedisConnectionFactory unknown = (RedisConnectionFactory) Proxy.newProxyInstance(getClass().getClassLoader(),
				new Class<?>[] { RedisConnectionFactory.class }, (proxy, method, args) -> null);
		assertThat(RedisSupport.describe(unknown)).startsWith("Redis (").endsWith(")");
	}

}
