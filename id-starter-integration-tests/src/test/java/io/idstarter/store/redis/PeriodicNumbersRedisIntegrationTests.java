package io.idstarter.store.redis;

import io.idstarter.segment.SegmentStore;
import io.idstarter.store.AbstractPeriodicNumbersTests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Periodic numbers on {@link RedisSegmentStore} over the real Redis, under a key prefix of its own removed at the end.
 */
class PeriodicNumbersRedisIntegrationTests extends AbstractPeriodicNumbersTests {

	private static RedisTestServer server;

	@BeforeAll
	static void connect() {
		server = new RedisTestServer();
	}

	@AfterAll
	static void cleanUp() {
		server.close();
	}

	@Override
	protected SegmentStore newStore() {
		return new RedisSegmentStore(server.factory, server.prefix);
	}

}
