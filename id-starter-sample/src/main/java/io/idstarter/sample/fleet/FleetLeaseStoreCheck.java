package io.idstarter.sample.fleet;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.sample.IdServerProperties;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * Refuses to start a server that has fleet clients ({@code id-server.clients}) and a lease store whose leases end
 * only with this server's own connection ({@link ISequenceManager#leasesEndWhenRenewalsStop()} is {@code false}, as
 * for ZooKeeper): a client that died would keep its worker ID until this server restarts.
 */
@Component
class FleetLeaseStoreCheck implements InitializingBean {

	private final ObjectProvider<ISequenceManager> leases;

	private final IdServerProperties properties;

	FleetLeaseStoreCheck(ObjectProvider<ISequenceManager> leases, IdServerProperties properties) {
		this.leases = leases;
		this.properties = properties;
	}

	@Override
	public void afterPropertiesSet() {
		ISequenceManager leases = this.leases.getIfUnique();
		if (leases != null && !this.properties.getClients().isEmpty() && !leases.leasesEndWhenRenewalsStop()) {
			throw new FleetLeaseStoreException(leases.getClass().getName(), this.properties.getClients().size());
		}
	}

}
