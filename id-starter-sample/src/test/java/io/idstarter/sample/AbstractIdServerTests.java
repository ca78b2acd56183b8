package io.idstarter.sample;

import java.nio.file.Path;

import org.junit.jupiter.api.BeforeEach;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The ID server running on a random port with a data directory of its own (H2 file, worker-ID cache, marks; kept
 * under {@code target/test-data}), and a plain HTTP client for it. A subclass adds its settings with
 * {@code @TestPropertySource(properties = …)}. Each class gets its own server, closed after it, so that no two
 * classes share a store.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext
abstract class AbstractIdServerTests {

	@LocalServerPort
	protected int port;

	/** The server's {@code id-server.data-dir}. */
	@Value("${id-server.data-dir}")
	protected Path dataDir;

	protected HttpTestClient http;

	@DynamicPropertySource
	static void dataDir(DynamicPropertyRegistry registry) {
		// Called once per application context: each server gets a new directory.
		Path dataDir = TestDataDirs.create("id-server");
		registry.add("id-server.data-dir", dataDir::toString);
	}

	@BeforeEach
	void httpClient() {
		this.http = new HttpTestClient(this.port);
	}

}
