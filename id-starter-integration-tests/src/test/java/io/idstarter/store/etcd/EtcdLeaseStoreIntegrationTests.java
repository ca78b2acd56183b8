package io.idstarter.store.etcd;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.GetOption;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.store.ensemble.AbstractEnsembleLeaseStoreTests;
import io.idstarter.testsupport.TcpProxy;
import io.idstarter.testsupport.TestBackends;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@link EtcdLeaseStore} against the three-member cluster of {@code TestBackends.etcd()}, each class under a key
 * prefix of its own.
 */
class EtcdLeaseStoreIntegrationTests extends AbstractEnsembleLeaseStoreTests {

	private final String prefix = "/idstarter-test/" + UUID.randomUUID() + "/";

	private Client admin;

	@Override
	protected ISequenceManager connect(List<AutoCloseable> closeables) {
		String endpoints = TestBackends.etcd().connectString();
		Client client = Client.builder().endpoints(endpoints.split(",")).build();
		closeables.add(client);
		if (this.admin == null) {
			this.admin = client;
		}
		return new EtcdLeaseStore(client, this.prefix, Duration.ofSeconds(5), endpoints);
	}

	@Override
	protected List<String> identityParts() {
		return List.of("etcd lease store, key prefix " + this.prefix);
	}

	@Test
	void identityLeavesOutTheEndpointsSoThatAGrowingClusterIsTheSameStore() {
		for (String endpoint : TestBackends.etcd().connectString().split(",")) {
			assertThat(manager().identity()).doesNotContain(endpoint.replaceFirst("^https?://", ""));
		}
	}

	@Override
	protected ISequenceManager connectThrough(TcpProxy proxy, Duration ttl, List<AutoCloseable> closeables) {
		String endpoint = "http://127.0.0.1:" + proxy.port();
		Client client = Client.builder().endpoints(endpoint).connectTimeout(Duration.ofSeconds(1)).build();
		closeables.add(client);
		return new EtcdLeaseStore(client, this.prefix, Duration.ofSeconds(1), endpoint);
	}

	@Override
	protected TcpProxy proxyToAMember() {
		String first = TestBackends.etcd().members().get(0).replaceFirst("^https?://", "");
		return TcpProxy.start(first.substring(0, first.lastIndexOf(':')),
				Integer.parseInt(first.substring(first.lastIndexOf(':') + 1)));
	}

	@AfterAll
	void deletePrefix() throws Exception {
		if (this.admin != null) {
			this.admin.getKVClient()
				.delete(bytes(this.prefix), DeleteOption.builder().isPrefix(true).build())
				.get(5, TimeUnit.SECONDS);
		}
	}

	@Override
	protected Map<String, String> snapshot(String namespace) {
		String base = manager().namespaceKey(namespace);
		Map<String, String> keys = new TreeMap<>();
		try {
			for (KeyValue kv : this.admin.getKVClient()
				.get(bytes(base), GetOption.builder().isPrefix(true).build())
				.get(5, TimeUnit.SECONDS)
				.getKvs()) {
				keys.put(kv.getKey().toString(StandardCharsets.UTF_8),
						kv.getValue().toString(StandardCharsets.UTF_8) + " @" + kv.getModRevision());
			}
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
		return keys;
	}

	@Override
	protected boolean holderExists(String namespace, int workerId) {
		try {
			return !this.admin.getKVClient()
				.get(bytes(manager().namespaceKey(namespace) + "holders/" + workerId))
				.get(5, TimeUnit.SECONDS)
				.getKvs()
				.isEmpty();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	protected EtcdLeaseStore manager() {
		return (EtcdLeaseStore) super.manager();
	}

	@Test
	void theEtcdLeaseLastsTheLeaseTtlRoundedUpToWholeSeconds() throws Exception {
		String namespace = namespace();
		manager().borrow(request(namespace, 0, Duration.ofMillis(2500), -1, 0));
		KeyValue holder = this.admin.getKVClient()
			.get(bytes(manager().namespaceKey(namespace) + "holders/0"))
			.get(5, TimeUnit.SECONDS)
			.getKvs()
			.get(0);
		long granted = this.admin.getLeaseClient()
			.timeToLive(holder.getLease(), io.etcd.jetcd.options.LeaseOption.DEFAULT)
			.get(5, TimeUnit.SECONDS)
			.getGrantedTTL();
		assertThat(granted).isEqualTo(3);
	}

	@Test
	void aRecordWrittenByAnotherProgramIsReportedNotOverwritten() throws Exception {
		String namespace = namespace();
		String key = manager().namespaceKey(namespace) + "slots/0";
		this.admin.getKVClient().put(bytes(key), bytes("not a record")).get(5, TimeUnit.SECONDS);
		manager().borrow(request(namespace, 1, TTL, -1, 0));
		assertThatExceptionOfType(LeaseStoreException.class)
			.isThrownBy(() -> manager().borrow(request(namespace, 1, TTL, 0, 0)))
			.withMessageContaining(key)
			.withMessageContaining("not a record")
			.withMessageContaining("id-worker.etcd.prefix");
	}

	@Test
	void theLayoutIsAKeyBesideTheSlotsAndOneWrittenByEtcdctlIsReadAsItIs() throws Exception {
		String namespace = namespace();
		String key = manager().namespaceKey(namespace) + "layout";
		this.admin.getKVClient().put(bytes(key), bytes("put by etcdctl")).get(5, TimeUnit.SECONDS);
		assertThat(manager().recordLayout(namespace, "mine")).isEqualTo("put by etcdctl");
		assertThat(manager().borrow(request(namespace, 0, TTL, -1, 0)).workerId()).isZero();
		String base = manager().namespaceKey(namespace);
		assertThat(snapshot(namespace)).containsOnlyKeys(base + "holders/0", base + "slots/0", key);
		assertThat(manager().slotMarks(namespace)).extracting((mark) -> mark.workerId()).containsExactly(0);
		assertThat(manager().replaceLayout(namespace, "put by", "mine")).as("the whole value is compared").isFalse();
		assertThat(manager().replaceLayout(namespace, "put by etcdctl", "mine")).isTrue();
		assertThat(this.admin.getKVClient().get(bytes(key)).get(5, TimeUnit.SECONDS).getKvs().get(0).getValue()
			.toString(StandardCharsets.UTF_8)).isEqualTo("mine");
		this.admin.getKVClient().delete(bytes(key)).get(5, TimeUnit.SECONDS);
		assertThat(manager().replaceLayout(namespace, "mine", "other")).as("a deleted record is no record").isFalse();
		assertThat(manager().recordLayout(namespace, "other")).isEqualTo("other");
	}

	private static ByteSequence bytes(String text) {
		return ByteSequence.from(text, StandardCharsets.UTF_8);
	}

}
