package io.idstarter.autoconfigure.http;

import java.io.IOException;
import java.net.ServerSocket;

import io.idstarter.actuate.health.IdServersHealthIndicator;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.metrics.IdServerMetrics;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentStore;
import io.idstarter.store.http.HttpSegmentStore;
import io.idstarter.store.http.HttpLeaseStore;
import io.idstarter.store.http.IdServerClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.web.client.RestClient;

import static org.assertj.core.api.Assertions.assertThat;

class HttpStoreConfigurationTests {

	private final String down = "http://127.0.0.1:" + closedPort();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(HttpLeaseStoreConfiguration.class, HttpSegmentStoreConfiguration.class))
		.withPropertyValues("id-worker.http.servers=" + this.down, "id-worker.http.token=token-0123456789abcdef",
				"id-worker.http.retry.max-attempts=1");

	@Test
	void leaseStoreAndChosenSegmentStoreCallTheServers() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(HttpLeaseStore.class)
			.hasSingleBean(IdServerClient.class)
			.doesNotHaveBean(SegmentStore.class));
		this.contextRunner.withPropertyValues("id-worker.segment.store=http").run((context) -> {
			assertThat(context).hasSingleBean(HttpSegmentStore.class)
				.hasSingleBean(IdServersHealthIndicator.class)
				.hasSingleBean(IdServerMetrics.class);
			// The server could not be reached at start: logged, not fatal; health says so.
			assertThat(context.getBean(IdServersHealthIndicator.class).health(true).getStatus())
				.isEqualTo(Status.DOWN);
		});
	}

	@Test
	void serversAreRequired() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(HttpLeaseStoreConfiguration.class))
			.withPropertyValues("id-worker.http.token=token-0123456789abcdef")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("id-worker.http.servers"));
	}

	@Test
	void serversMustBeHttpUrls() {
		this.contextRunner.withPropertyValues("id-worker.http.servers=ftp://ids:21")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("id-worker.http.servers[0]"));
	}

	@Test
	void credentialsAreRequiredAndTheMissingPropertyNamed() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(HttpLeaseStoreConfiguration.class))
			.withPropertyValues("id-worker.http.servers=" + this.down)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("id-worker.http.token"));
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(HttpLeaseStoreConfiguration.class))
			.withPropertyValues("id-worker.http.servers=" + this.down, "id-worker.http.username=orders")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("id-worker.http.password"));
	}

	@Test
	void backsOffWithoutRestClient() {
		this.contextRunner.withPropertyValues("id-worker.segment.store=http")
			.withClassLoader(new FilteredClassLoader(RestClient.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(ISequenceManager.class)
				.doesNotHaveBean(SegmentStore.class));
	}

	@Test
	void applicationStoresWin() {
		this.contextRunner.withPropertyValues("id-worker.segment.store=http")
			.withBean(SegmentStore.class, InMemorySegmentStore::new)
			.run((context) -> assertThat(context).doesNotHaveBean(HttpSegmentStore.class)
				.getBean(SegmentStore.class)
				.isInstanceOf(InMemorySegmentStore.class));
	}

	private static int closedPort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
