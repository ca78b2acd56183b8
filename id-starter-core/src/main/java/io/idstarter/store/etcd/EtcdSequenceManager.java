package io.idstarter.store.etcd;

import java.time.Duration;

import io.etcd.jetcd.Client;

/**
 * The former name of {@link EtcdLeaseStore}.
 *
 * @deprecated lease stores are named {@code *LeaseStore} so that they read apart from the sequences of
 * {@code io.idstarter.sequence}; use {@link EtcdLeaseStore}, which takes the same arguments
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public class EtcdSequenceManager extends EtcdLeaseStore {

	public EtcdSequenceManager(Client client) {
		super(client);
	}

	public EtcdSequenceManager(Client client, String prefix, Duration callTimeout, String endpoints) {
		super(client, prefix, callTimeout, endpoints);
	}

}
