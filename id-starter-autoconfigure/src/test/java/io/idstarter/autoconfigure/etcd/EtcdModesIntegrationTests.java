package io.idstarter.autoconfigure.etcd;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.lease.LeaseStatus;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.store.etcd.EtcdLeaseStore;
import io.idstarter.testsupport.TestBackends;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ETCD mode on the real three-member cluster, under a key prefix of its own.
 */
class EtcdModesIntegrationTests {

	private final String endpoints = TestBackends.etcd().connectString();

	private final String prefix = "/idstarter-it/" + UUID.randomUUID() + "/";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(EtcdMode.class)
		.withPropertyValues("id-worker.etcd.endpoints=" + this.endpoints, "id-worker.etcd.prefix=" + this.prefix,
				"id-worker.lease.namespace=it");

	@Test
	void etcdModeLeasesDifferentWorkerIdsFromTheCluster() {
		this.contextRunner.run((first) -> {
			assertThat(first).hasNotFailed().hasSingleBean(EtcdLeaseStore.class);
			WorkerLeaseKeeper keeper = first.getBean(WorkerLeaseKeeper.class);
			assertThat(keeper.status().state()).isEqualTo(LeaseStatus.State.ACTIVE);
			this.contextRunner.run((second) -> {
				assertThat(second.getBean(WorkerLeaseKeeper.class).status().workerId())
					.isNotEqualTo(keeper.status().workerId());
				assertThat(second.getBean(IdWorker.class).nextId()).isPositive();
			});
			Client client = first.getBean(Client.class);
			assertThat(client.getKVClient()
				.get(bytes(this.prefix + "it/holders/"), GetOption.builder().isPrefix(true).build())
				.get(5, TimeUnit.SECONDS)
				.getKvs()).hasSize(1);
		});
	}

	@AfterEach
	void deletePrefix() throws Exception {
		try (Client admin = Client.builder().endpoints(this.endpoints.split(",")).build()) {
			admin.getKVClient()
				.delete(bytes(this.prefix), DeleteOption.builder().isPrefix(true).build())
				.get(5, TimeUnit.SECONDS);
		}
	}

	private static ByteSequence bytes(String text) {
		return ByteSequence.from(text, StandardCharsets.UTF_8);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.ETCD)
	static class EtcdMode {

	}

}
