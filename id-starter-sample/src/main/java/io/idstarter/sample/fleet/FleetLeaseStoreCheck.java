package io.idstarter.sample.fleet;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.sample.IdServerProperties;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

/**
 * Refuses to start a server that has fleet clients ({@code id-server.clients}) and a lease store whose leases end
 * only with this server's own connection ({@link ISequenceManager#leasesEndWhenRenewalsStop()} is {@code false}, as
 * for ZooKeeper): a client that died would keep its worker ID until this server restarts.
 */
@Component
class FleetLeaseStoreCheck implements InitializingBean {

	private final ISequenceManager leases;

	private final IdServerProperties properties;

	FleetLeaseStoreCheck(ISequenceManager leases, IdServerProperties properties) {
		this.leases = leases;
		this.properties = properties;
	}

	@Override
	public void afterPropertiesSet() {
		if (!this.properties.getClients().isEmpty() && !this.leases.leasesEndWhenRenewalsStop()) {
			throw new FleetLeaseStoreException(this.leases.getClass().getName(), this.properties.getClients().size());
		}
	}

}
