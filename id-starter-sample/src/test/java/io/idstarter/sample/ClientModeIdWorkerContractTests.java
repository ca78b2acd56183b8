package io.idstarter.sample;

import java.util.List;

import io.idstarter.IdWorker;
import io.idstarter.fleetclient.ClientApplication;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.testsupport.contract.AbstractIdWorkerContractTests;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Nested;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.TestPropertySource;

/**
 * The generators of client mode pass the generator contract with every range and lease taken over HTTP from a
 * running ID server: the segment generator over {@code HttpSegmentStore} and the Snowflake generator whose worker ID
 * is leased through {@code HttpLeaseStore}, each as a client application builds it from its properties.
 */
@TestPropertySource(properties = { "id-server.clients[0].name=kit", "id-server.clients[0].token=kit-token-0123456789",
		"id-server.clients[0].namespaces=fleet-client", "id-server.clients[0].segment-keys=kit-*",
		"id-server.clients[0].max-ranges-per-second=100000", "id-worker.segment.keys.kit-a.step=10000",
		"id-worker.segment.keys.kit-b.first-id=1000000000", "id-worker.segment.keys.kit-b.step=10000" })
class ClientModeIdWorkerContractTests extends AbstractIdServerTests {

	/** The client application of the current test; closed with its generator. */
	private @Nullable ConfigurableApplicationContext client;

	private <T extends IdWorker> T start(Class<T> type) {
		this.client = ClientApplication.start("http://127.0.0.1:" + this.port, "id-worker.http.token",
				"kit-token-0123456789", "id-worker.segment.default-key", "kit-a");
		return this.client.getBean(type);
	}

	private void stop() {
		if (this.client != null) {
			this.client.close();
			this.client = null;
		}
	}

	/**
	 * The kit over one generator bean of a client application started for each test.
	 */
	abstract class ClientGenerator extends AbstractIdWorkerContractTests {

		abstract Class<? extends IdWorker> generatorType();

		@Override
		protected IdWorker createIdWorker() {
			return start(generatorType());
		}

		@Override
		protected void closeIdWorker(IdWorker worker) {
			stop();
		}

	}

	@Nested
	class SegmentIds extends ClientGenerator {

		@Override
		Class<? extends IdWorker> generatorType() {
			return SegmentIdGenerator.class;
		}

		@Override
		protected List<String> keys() {
			return List.of("kit-a", "kit-b");
		}

		@Override
		protected boolean keysShareOneNumberSpace() {
			return false;
		}

	}

	@Nested
	class SnowflakeIds extends ClientGenerator {

		@Override
		Class<? extends IdWorker> generatorType() {
			return SnowflakeIdGenerator.class;
		}

	}

}
