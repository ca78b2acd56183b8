package io.idstarter.sample;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentStore;
import io.idstarter.store.http.HttpSegmentStore;
import io.idstarter.store.http.IdServerClient;
import io.idstarter.testsupport.contract.AbstractSegmentStoreContractTests;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link HttpSegmentStore} (client mode) against a real ID server on a random port: the range contract of
 * {@link AbstractSegmentStoreContractTests}, ranges drawn through the fleet API. Keys are created and their steps
 * changed in the server's own store, as the server's administrators do: client mode draws ranges and lists keys,
 * it administers none.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "id-server.clients[0].name=contract", "id-server.clients[0].token=contract-token-0123456789" })
@DirtiesContext
class HttpSegmentStoreContractTests extends AbstractSegmentStoreContractTests {

	private static final Path dataDir = TestDataDirs.create("http-segment-contract");

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("id-server.data-dir", dataDir::toString);
	}

	@LocalServerPort
	private int port;

	@Autowired
	private SegmentStore serverStore;

	@Override
	protected SegmentStore createStore() {
		return new HttpSegmentStore(new IdServerClient(RestClient.create(),
				List.of(URI.create("http://127.0.0.1:" + this.port)), 1, Duration.ofMillis(10), Duration.ofMillis(10),
				"Bearer contract-token-0123456789", "id-worker.http.token"));
	}

	@Override
	protected SegmentKeyAdmin createAdmin(SegmentStore store) {
		assertThat(this.serverStore).as("the ID server's own store administers its keys")
			.isInstanceOf(SegmentKeyAdmin.class);
		return (SegmentKeyAdmin) this.serverStore;
	}

	@Override
	protected String withoutStorageSkipReason() {
		return "a client keeps no storage of its own: the ID server answers for its store (a store it cannot "
				+ "use is a 503 that the client retries on another server, IdServerClientTests)";
	}

}
