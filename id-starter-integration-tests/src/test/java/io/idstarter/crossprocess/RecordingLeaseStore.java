package io.idstarter.crossprocess;

import java.util.Objects;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.WorkerLease;

/**
 * An {@link ISequenceManager} that records every call to the store it wraps, before and after, with the wall clock:
 * the raw material of the lease history checks ({@link LeaseHistory}).
 *
 * <p>Events: {@code lease-borrow-start}, {@code lease-borrow-ok} (worker, token, floor, ceiling, store time),
 * {@code lease-borrow-full}, {@code lease-borrow-failed}; {@code lease-renew-start}, {@code lease-renew-ok},
 * {@code lease-renew-lost}, {@code lease-renew-failed}; {@code lease-release-start}, {@code lease-release-ok},
 * {@code lease-release-failed}. A lease is named by the first 8 characters of its owner token.
 */
final class RecordingLeaseStore implements ISequenceManager {

	private final ISequenceManager delegate;

	private final EventLog log;

	RecordingLeaseStore(ISequenceManager delegate, EventLog log) {
		this.delegate = Objects.requireNonNull(delegate, "delegate");
		this.log = Objects.requireNonNull(log, "log");
	}

	@Override
	public WorkerLease borrow(LeaseRequest request) {
		this.log.record("lease-borrow-start", "preferred=" + request.preferredWorkerId() + " requested="
				+ request.timestampCeiling());
		WorkerLease lease;
		try {
			lease = this.delegate.borrow(request);
		}
		catch (NoFreeWorkerIdException ex) {
			this.log.record("lease-borrow-full", EventLog.error(ex));
			throw ex;
		}
		catch (RuntimeException ex) {
			this.log.record("lease-borrow-failed", EventLog.error(ex));
			throw ex;
		}
		this.log.record("lease-borrow-ok", describe(lease));
		return lease;
	}

	@Override
	public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
		this.log.record("lease-renew-start", "worker=" + lease.workerId() + " token=" + token(lease) + " requested="
				+ timestampCeiling);
		WorkerLease renewed;
		try {
			renewed = this.delegate.renew(lease, timestampCeiling);
		}
		catch (LeaseLostException ex) {
			this.log.record("lease-renew-lost", "worker=" + lease.workerId() + " token=" + token(lease) + " "
					+ EventLog.error(ex));
			throw ex;
		}
		catch (RuntimeException ex) {
			this.log.record("lease-renew-failed", "worker=" + lease.workerId() + " token=" + token(lease) + " "
					+ EventLog.error(ex));
			throw ex;
		}
		this.log.record("lease-renew-ok", describe(renewed));
		return renewed;
	}

	@Override
	public void release(WorkerLease lease, long lastIssuedTimestamp) {
		this.log.record("lease-release-start", "worker=" + lease.workerId() + " token=" + token(lease) + " last="
				+ lastIssuedTimestamp);
		try {
			this.delegate.release(lease, lastIssuedTimestamp);
		}
		catch (RuntimeException ex) {
			this.log.record("lease-release-failed", "worker=" + lease.workerId() + " token=" + token(lease) + " "
					+ EventLog.error(ex));
			throw ex;
		}
		this.log.record("lease-release-ok", "worker=" + lease.workerId() + " token=" + token(lease));
	}

	private static String describe(WorkerLease lease) {
		return "worker=" + lease.workerId() + " token=" + token(lease) + " floor=" + lease.timestampFloor()
				+ " ceiling=" + lease.timestampCeiling() + " storeTime=" + lease.storeTimeMillis();
	}

	static String token(WorkerLease lease) {
		String token = lease.ownerToken();
		return (token.length() > 8) ? token.substring(0, 8) : token;
	}

}
