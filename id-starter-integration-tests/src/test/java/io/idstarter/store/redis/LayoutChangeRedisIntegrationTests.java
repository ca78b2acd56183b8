package io.idstarter.store.redis;

import io.idstarter.lease.AbstractLayoutChangeIntegrationTests;
import io.idstarter.lease.ISequenceManager;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The layout record and a planned layout change on Redis: the record is the key {@code <prefix>layout:<namespace>}.
 */
class LayoutChangeRedisIntegrationTests extends AbstractLayoutChangeIntegrationTests {

	private static RedisTestServer server;

	private static RedisLeaseStore store;

	@BeforeAll
	static void connect() {
		server = new RedisTestServer();
		store = new RedisLeaseStore(server.factory, server.prefix);
	}

	@AfterAll
	static void cleanUp() {
		server.close();
	}

	@Override
	protected ISequenceManager store() {
		return store;
	}

	@Override
	protected void deleteLayoutRecord(String namespace) {
		server.redis.delete(store.layoutKey(namespace));
	}

}
