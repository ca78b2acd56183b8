package io.idstarter.sample;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentStore;
import io.idstarter.store.http.HttpSegmentStore;
import io.idstarter.store.http.HttpLeaseStore;
import io.idstarter.store.http.IdServerClient;
import io.idstarter.testsupport.contract.AbstractSegmentStoreContractTests;
import io.idstarter.testsupport.contract.AbstractLeaseStoreContractTests;
import org.junit.jupiter.api.Nested;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client-mode stores, {@link HttpLeaseStore} and {@link HttpSegmentStore}, against a real ID server on a
 * random port (its store: H2 in the data directory), held to the store contract kits through the fleet API.
 *
 * <p>Two parts of the contracts are the server's by design: keys are created and their steps changed in the server's
 * own store, as its administrators do (client mode draws ranges and lists keys, it administers none); and a store
 * that is not set up is the server's store, which the client only sees as a 503 to retry elsewhere.
 */
@TestPropertySource(properties = { "id-server.clients[0].name=contract",
		"id-server.clients[0].token=contract-token-0123456789", "id-server.clients[0].namespaces=contract-ns-*",
		"id-server.clients[0].segment-keys=contract-key-*", "id-server.clients[0].max-leases=1000",
		"id-server.clients[0].max-ranges-per-second=100000",
		// the kit asks for ceilings up to two minutes ahead with a TTL of one second
		"id-server.fleet.clock-allowance=10m" })
class ClientModeContractTests extends AbstractIdServerTests {

	private static final String NO_STORAGE = "a client keeps no storage of its own: the ID server answers for its "
			+ "store (a store it cannot use is a 503 that the client retries on another server, IdServerClientTests)";

	@Autowired
	private SegmentStore serverStore;

	private IdServerClient client() {
		return new IdServerClient(RestClient.create(), List.of(URI.create("http://127.0.0.1:" + this.port)), 1,
				Duration.ofMillis(10), Duration.ofMillis(10), "Bearer contract-token-0123456789",
				"id-worker.http.token");
	}

	@Nested
	class Leases extends AbstractLeaseStoreContractTests {

		@Override
		protected ISequenceManager createManager() {
			return new HttpLeaseStore(client());
		}

		@Override
		protected String withoutStorageSkipReason() {
			return NO_STORAGE;
		}

	}

	@Nested
	class Segments extends AbstractSegmentStoreContractTests {

		@Override
		protected SegmentStore createStore() {
			return new HttpSegmentStore(client());
		}

		@Override
		protected SegmentKeyAdmin createAdmin(SegmentStore store) {
			assertThat(ClientModeContractTests.this.serverStore).as("the ID server's own store administers its keys")
				.isInstanceOf(SegmentKeyAdmin.class);
			return (SegmentKeyAdmin) ClientModeContractTests.this.serverStore;
		}

		/** The fleet API has no marker of the key list: a client's refresh reads its keys. */
		@Override
		protected boolean keepsKeysMarker() {
			return false;
		}

		@Override
		protected String withoutStorageSkipReason() {
			return NO_STORAGE;
		}

	}

}
