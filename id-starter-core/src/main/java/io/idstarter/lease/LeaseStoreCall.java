package io.idstarter.lease;

import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one call of a lease store whose client throws checked exceptions (ZooKeeper's Curator, etcd's jetcd), so that
 * the store's methods throw only what {@link ISequenceManager} declares: the lease exceptions pass as they are, an
 * interrupt keeps the thread's flag and fails the call, and any other failure becomes the store's own
 * {@link LeaseStoreException}, which names the store and what to check.
 */
public final class LeaseStoreCall {

	private static final Logger logger = LoggerFactory.getLogger(LeaseStoreCall.class);

	private LeaseStoreCall() {
	}

	/**
	 * Runs a call.
	 * @param <T> what the call returns
	 * @param action what the call does, such as "renew worker ID 3 of namespace 'orders'"
	 * @param store the store, for the operator: "ZooKeeper host1:2181,host2:2181"
	 * @param call the call
	 * @param failure turns any other failure of the client into the store's exception
	 * @return what the call returned
	 * @throws LeaseStoreException for any failure that is not already one of the lease exceptions, which pass as the
	 * call threw them
	 */
	public static <T> T run(String action, String store, Body<T> call,
			Function<Exception, LeaseStoreException> failure) {
		try {
			return call.run();
		}
		catch (LeaseLostException | LeaseStoreException | NoFreeWorkerIdException ex) {
			throw ex;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LeaseStoreException("interrupted while trying to " + action + " on " + store, ex);
		}
		catch (Exception ex) {
			throw failure.apply(ex);
		}
	}

	/**
	 * Runs a borrow's attempts until one takes a slot, for a store that reads its slots and tries one candidate per
	 * attempt: an attempt that lost its candidate to a concurrent borrower returns {@code null}, and the next one reads
	 * again.
	 * @param action what the borrow does, such as "borrow a worker ID of namespace 'orders'"
	 * @param store the store, for the operator
	 * @param attempts how many attempts to make before giving up
	 * @param attempt one attempt: the lease, or {@code null} if the candidate was taken meanwhile
	 * @return the lease
	 * @throws Exception what an attempt threw; a {@link LeaseStoreException} after {@code attempts} lost races
	 */
	public static WorkerLease untilTaken(String action, String store, int attempts,
			Body<@Nullable WorkerLease> attempt) throws Exception {
		for (int i = 1; i <= attempts; i++) {
			WorkerLease lease = attempt.run();
			if (lease != null) {
				return lease;
			}
			logger.debug("{} on {}: the slot chosen was taken by another node meanwhile; choosing again", action, store);
		}
		throw LeaseStoreException.racesLost(action, store, attempts);
	}

	/**
	 * A store call that may throw what its client throws.
	 * @param <T> what it returns
	 */
	@FunctionalInterface
	public interface Body<T> {

		/**
		 * Runs the call.
		 * @return its result
		 * @throws Exception whatever the client throws
		 */
		T run() throws Exception;

	}

}
