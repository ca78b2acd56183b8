package io.idstarter.lease;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * Leases worker IDs (Snowflake node IDs) from a store shared by every instance; the extension point for stores this
 * project does not ship.
 *
 * <p>A worker ID is a <em>slot</em> in {@code [0, maxWorkerId]} of a namespace. At most one owner holds a slot at a
 * time: a slot is free when it was never taken, was released, or its lease expired by the <em>store's</em> clock.
 * Each slot keeps a timestamp high-water mark ({@code maxTimestamp}, milliseconds since the Unix epoch): the greatest
 * timestamp its owners were allowed to stamp IDs with. The store only ever raises it, except on {@link #release}, where
 * an owner that has stopped issuing reports what it really used.
 *
 * <p>Every store chooses the slot to lend in the same order, so that stores can be swapped without surprises:
 * <ol>
 * <li>the preferred slot ({@link LeaseRequest#preferredWorkerId()}, the one this instance held before) if it is
 * free;</li>
 * <li>otherwise a slot never used in the namespace, lowest worker ID first;</li>
 * <li>otherwise the slot that has been free for longest: released earliest, or whose lease expired earliest, by the
 * store's clock (ties: lowest worker ID).</li>
 * </ol>
 * Never-used slots come first because their mark is {@code -1}: the new owner can issue at once, while a slot used
 * before may make it wait for its clock to pass the mark. A slot's expiry and "free since" are measured by the store's
 * clock only.
 *
 * <p>Implementations must make each method a single atomic step in the store (a transaction, a Lua script, a
 * single-document update), and must check the owner token on renew and release so that a node whose lease expired
 * can never extend or free a slot that another node holds now.
 *
 * <p><b>Writing a store.</b> What every store shares is written once in this package; a store supplies its reads and
 * one compare-and-set per protocol step:
 * <ul>
 * <li>{@link #borrow}: read the namespace's slots (whether each is free, and since when by the store's clock) into
 * {@link SlotOrder.UsedSlot}s, and try {@link SlotOrder#candidates} in order with one compare-and-set each (take a
 * used slot only if it is still as read; create a never-used one only if it is still absent), moving on when one is
 * lost to a concurrent borrower and reading again when all were; with none to try, throw
 * {@link NoFreeWorkerIdException#allHeld}. The new owner's floor is the mark read; the mark becomes
 * {@code max(floor, request's ceiling)}.</li>
 * <li>{@link #renew}: a compare-and-set on the slot and the owner token; a lease that is not held with that token
 * throws {@link LeaseLostException#notHeld}.</li>
 * <li>{@link #release}: the same condition; the mark becomes {@link WorkerLease#releaseMark}, kept as it is when that
 * is {@code -1}; nothing happens when the token no longer holds the slot.</li>
 * <li>A client that throws checked exceptions runs each call through {@link LeaseStoreCall}, whose failures become a
 * {@link LeaseStoreException} naming the store and what to check.</li>
 * </ul>
 * A store whose atomic step is a script (Redis's {@code lease-borrow.lua}) writes the order in the script instead, and
 * says so. Every store proves the contract by extending {@code AbstractLeaseStoreContractTests} of
 * {@code id-starter-test-support}, which checks the order, the tokens, expiry by the store's clock, the marks and the
 * refusals' messages the same way for each.
 */
public interface ISequenceManager {

	/**
	 * Takes a free slot, in the order the class description gives: the preferred slot if free, else the lowest slot
	 * never used, else the slot free for longest; never one of {@link LeaseRequest#excludedWorkerIds()}.
	 * @param request what to borrow
	 * @return the lease, whose {@link WorkerLease#timestampFloor()} is the slot's high-water mark before this call
	 * @throws NoFreeWorkerIdException if every slot of the namespace is held
	 * @throws LeaseStoreException if the store cannot be reached or is not set up
	 */
	WorkerLease borrow(LeaseRequest request);

	/**
	 * Extends a lease by its TTL from the store's current time and raises the slot's high-water mark to at least
	 * {@code timestampCeiling}.
	 * @param lease the lease held now
	 * @param timestampCeiling the greatest timestamp the owner wants to be allowed to issue until the next renewal
	 * @return the renewed lease
	 * @throws LeaseLostException if the slot is no longer held with this lease's owner token; a
	 * {@link WorkerIdConflictException} if a program outside the lease protocol claims its worker ID
	 * @throws LeaseStoreException if the store cannot be reached
	 */
	WorkerLease renew(WorkerLease lease, long timestampCeiling);

	/**
	 * Gives a slot back. The caller must have stopped issuing IDs under the lease.
	 * @param lease the lease held now
	 * @param lastIssuedTimestamp the greatest timestamp actually issued under the lease, or {@code -1} if unknown (the
	 * high-water mark is then kept as it is); the mark becomes {@code max(lastIssuedTimestamp, lease's floor)}, so an
	 * owner that issued nothing reports its floor (0 for none) and leaves the slot's mark as the borrow found it
	 * @throws LeaseStoreException if the store cannot be reached (the lease then simply expires)
	 */
	void release(WorkerLease lease, long lastIssuedTimestamp);

	/**
	 * Records the layout of a namespace's IDs unless one is recorded already (one atomic put-if-absent), and returns
	 * the recorded one: {@code layout} itself, or another node's that came first. The record is kept apart from the
	 * slots: it is never lent, counted or listed as one. Stores keep the text as it is (at most
	 * {@link io.idstarter.snowflake.RecordedLayout#MAX_LENGTH} characters) and never compare it; the lease keeper
	 * does. Nodes whose layouts differ would issue IDs that collide, so a node refuses to start on another layout.
	 * @param namespace the lease namespace
	 * @param layout this node's layout, in {@link io.idstarter.snowflake.RecordedLayout#format() stored form}
	 * @return the recorded layout, or {@code null} if this store keeps no layouts (the default, for stores written
	 * before layouts were recorded: nodes on different layouts are then not told apart, and the keeper says so)
	 * @throws IllegalArgumentException if {@code layout} is empty or longer than the longest stored form
	 * ({@link io.idstarter.snowflake.RecordedLayout#requireStorable}); nothing is written
	 * @throws LeaseStoreException if the store cannot be reached
	 * @since 0.2.0
	 */
	default @Nullable String recordLayout(String namespace, String layout) {
		return null;
	}

	/**
	 * Reads a namespace's recorded layout: one read, which writes nothing, so that a node can look at the record on
	 * every renewal without a write that fails (a put-if-absent of a record that exists is, on most stores, a failed
	 * insert or create).
	 * @param namespace the lease namespace
	 * @return the recorded layout in stored form, or {@code null} if none is recorded
	 * @throws LeaseStoreException if the store cannot be reached, or what it keeps at the record's place is not a
	 * layout record
	 * @throws UnsupportedOperationException if this store keeps no layouts
	 * @since 0.2.0
	 */
	default @Nullable String readLayout(String namespace) {
		throw new UnsupportedOperationException(getClass().getName() + " keeps no layouts");
	}

	/**
	 * Replaces a namespace's recorded layout if it is still {@code expected} (one atomic compare-and-set): the
	 * planned change of a layout, which the lease keeper allows only when every ID the new layout can issue sorts
	 * above every ID the slots' marks allow under the old one.
	 * @param namespace the lease namespace
	 * @param expected the layout recorded now, in stored form
	 * @param replacement the new layout, in stored form
	 * @return whether this call found the record {@code expected} and replaced it: of concurrent calls with the same
	 * arguments exactly one answers {@code true}, and a call that cannot tell whether its own write went through
	 * (a retry after a lost reply) answers {@code false} or throws, so that two writers never both believe they made a
	 * change
	 * @throws IllegalArgumentException if {@code replacement} is empty or longer than the longest stored form;
	 * nothing is written
	 * @throws LeaseStoreException if the store cannot be reached; a {@link LayoutChangeRefusedException} if the store
	 * judges planned changes itself (the ID servers) and its read of the slots does not allow this step
	 * @throws UnsupportedOperationException if this store keeps no layouts
	 * @since 0.2.0
	 */
	default boolean replaceLayout(String namespace, String expected, String replacement) {
		throw new UnsupportedOperationException(getClass().getName() + " keeps no layouts");
	}

	/**
	 * Reads every slot of a namespace the store has a record of, with its mark and whether a lease holds it now by
	 * the store's clock: what a planned layout change is judged by.
	 * @param namespace the lease namespace
	 * @return the slots, in no particular order
	 * @throws LeaseStoreException if the store cannot be reached
	 * @throws UnsupportedOperationException if this store keeps no layouts
	 * @since 0.2.0
	 */
	default List<SlotMark> slotMarks(String namespace) {
		throw new UnsupportedOperationException(getClass().getName() + " keeps no layouts");
	}

	/**
	 * Whether a lease ends by itself once its owner stops renewing it, whoever calls this manager. Not so for a store
	 * whose leases are held by this process's own connection (ZooKeeper's ephemeral nodes of the manager's session):
	 * they end only when this process goes away, so such a manager must not lease worker IDs for other processes (an
	 * ID server's fleet API), whose worker IDs would stay taken after they died.
	 * @return {@code true} unless leases live as long as this process's connection to the store
	 */
	default boolean leasesEndWhenRenewalsStop() {
		return true;
	}

	/**
	 * Names the store's slots, so that this node's worker-ID cache file and slot marks file can tell they belong to
	 * this store and not to another one (staging and production started from one data directory): the database and
	 * table, the Redis server (a cluster's seed nodes) and key prefix, the MongoDB database and collection, the
	 * ZooKeeper connect string and root path, the etcd endpoints and key prefix, the ID servers. Stable across restarts
	 * of the same configuration; never holds a password. Asked once at the start of a lease keeper; may call the
	 * store.
	 * @return the identity, or an empty string if the store cannot say (the files are then not checked)
	 */
	default String identity() {
		return "";
	}

}
