package com.example.store;

import java.util.List;

import javax.sql.DataSource;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.WorkerLease;

/**
 * Stands for a store of the reader's own in the docs' examples of the {@link ISequenceManager} extension point; it
 * keeps its leases in memory.
 */
public class MyLeaseStore implements ISequenceManager {

	private final ISequenceManager leases = new InMemoryLeaseStore();

	public MyLeaseStore(DataSource dataSource) {
	}

	@Override
	public WorkerLease borrow(LeaseRequest request) {
		return this.leases.borrow(request);
	}

	@Override
	public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
		return this.leases.renew(lease, timestampCeiling);
	}

	@Override
	public void release(WorkerLease lease, long lastIssuedTimestamp) {
		this.leases.release(lease, lastIssuedTimestamp);
	}

	@Override
	public String recordLayout(String namespace, String layout) {
		return this.leases.recordLayout(namespace, layout);
	}

	@Override
	public String readLayout(String namespace) {
		return this.leases.readLayout(namespace);
	}

	@Override
	public boolean replaceLayout(String namespace, String expected, String replacement) {
		return this.leases.replaceLayout(namespace, expected, replacement);
	}

	@Override
	public List<SlotMark> slotMarks(String namespace) {
		return this.leases.slotMarks(namespace);
	}

}
