package io.idstarter.sample;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.store.http.HttpSequenceManager;
import io.idstarter.store.http.IdServerClient;
import io.idstarter.testsupport.contract.AbstractSequenceManagerContractTests;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * {@link HttpSequenceManager} (client mode) against a real ID server on a random port: the lease contract of
 * {@link AbstractSequenceManagerContractTests}, through the fleet API to the server's own store.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
		properties = { "id-server.clients[0].name=contract", "id-server.clients[0].token=contract-token-0123456789" })
@DirtiesContext
class HttpSequenceManagerContractTests extends AbstractSequenceManagerContractTests {

	private static final Path dataDir = TestDataDirs.create("http-lease-contract");

	@DynamicPropertySource
	static void properties(DynamicPropertyRegistry registry) {
		registry.add("id-server.data-dir", dataDir::toString);
	}

	@LocalServerPort
	private int port;

	@Override
	protected ISequenceManager createManager() {
		return new HttpSequenceManager(new IdServerClient(RestClient.create(),
				List.of(URI.create("http://127.0.0.1:" + this.port)), 1, Duration.ofMillis(10), Duration.ofMillis(10),
				"Bearer contract-token-0123456789", "id-worker.http.token"));
	}

	@Override
	protected String withoutStorageSkipReason() {
		return "a client keeps no storage of its own: the ID server answers for its store (a store it cannot "
				+ "use is a 503 that the client retries on another server, IdServerClientTests)";
	}

}
