package io.idstarter.lease;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import org.jspecify.annotations.Nullable;

/**
 * The order in which a store offers slots to a borrower, as {@link ISequenceManager} states it, decided in one place:
 * the preferred slot if it is free; then slots never used, lowest worker ID first; then used slots that are free, the
 * one free for longest first (ties: lowest worker ID). A slot the request excludes, or outside
 * {@code [0, maxWorkerId]} (above it: a wider layout sharing the namespace), is never offered.
 *
 * <p>A store reads the slots it has a record of into {@link UsedSlot}s (whether each is free, and since when, by the
 * store's clock), asks for the {@link #candidates} and tries them in order, one compare-and-set per candidate: a
 * candidate lost to a concurrent borrower is passed, and the store reads again when all were lost. Redis's store keeps
 * this order in its borrow script ({@code lease-borrow.lua}), since one script is its one atomic step; the contract
 * kit checks every store's order the same way.
 */
public final class SlotOrder {

	private SlotOrder() {
	}

	/**
	 * Returns the slots to try, in order, for a request; slots never used are produced as they are reached, so a wide
	 * layout costs nothing until its gaps are tried.
	 * @param <R> what the store read of each slot
	 * @param request the borrow
	 * @param used every slot of the namespace the store has a record of
	 * @return the candidates; empty if no slot may be taken
	 */
	public static <R> Iterable<Candidate<R>> candidates(LeaseRequest request, Collection<UsedSlot<R>> used) {
		return candidates(request, request.preferredWorkerId(), used);
	}

	/**
	 * Returns the slots to try, in order, with a preferred slot the store chose itself (a Leaf node's own worker ID);
	 * it is passed over if the request excludes it.
	 * @param <R> what the store read of each slot
	 * @param request the borrow
	 * @param preferredWorkerId the slot to try first if free, or {@code -1}
	 * @param used every slot of the namespace the store has a record of
	 * @return the candidates; empty if no slot may be taken
	 */
	public static <R> Iterable<Candidate<R>> candidates(LeaseRequest request, int preferredWorkerId,
			Collection<UsedSlot<R>> used) {
		Map<Integer, UsedSlot<R>> byWorkerId = new HashMap<>();
		for (UsedSlot<R> slot : used) {
			if (slot.workerId() >= 0 && slot.workerId() <= request.maxWorkerId()) {
				byWorkerId.put(slot.workerId(), slot);
			}
		}
		UsedSlot<R> preferredSlot = byWorkerId.get(preferredWorkerId);
		boolean preferredFree = preferredWorkerId >= 0 && preferredWorkerId <= request.maxWorkerId()
				&& request.allows(preferredWorkerId) && (preferredSlot == null || preferredSlot.free());
		int first = preferredFree ? preferredWorkerId : -1;
		List<UsedSlot<R>> freeForLongest = new ArrayList<>();
		for (UsedSlot<R> slot : byWorkerId.values()) {
			if (slot.free() && slot.workerId() != first && request.allows(slot.workerId())) {
				freeForLongest.add(slot);
			}
		}
		freeForLongest.sort(Comparator.comparingLong((UsedSlot<R> slot) -> slot.freeSince())
			.thenComparingInt(UsedSlot::workerId));
		return () -> new Order<>(request, first, byWorkerId, freeForLongest);
	}

	/**
	 * Returns the first slot to try.
	 * @param <R> what the store read of each slot
	 * @param candidates the candidates
	 * @return the first, or {@code null} if there is none
	 */
	public static <R> @Nullable Candidate<R> first(Iterable<Candidate<R>> candidates) {
		Iterator<Candidate<R>> order = candidates.iterator();
		return order.hasNext() ? order.next() : null;
	}

	/**
	 * A slot the store has a record of, as it read it.
	 *
	 * @param <R> what the store read (a row, a document, a record and its version)
	 * @param workerId the slot
	 * @param free whether a borrower may take it: released, or its lease expired by the store's clock
	 * @param freeSince since when it is free by the store's clock (the release, or the lease's end), or any value
	 * while it is held; a store without a clock may use another measure that grows with time (a revision)
	 * @param read what the store read, for its compare-and-set
	 */
	public record UsedSlot<R>(int workerId, boolean free, long freeSince, R read) {

		/**
		 * Describes a slot held by a live lease.
		 * @param <R> what the store read
		 * @param workerId the slot
		 * @param read what the store read
		 * @return the slot
		 */
		public static <R> UsedSlot<R> held(int workerId, R read) {
			return new UsedSlot<>(workerId, false, Long.MAX_VALUE, read);
		}

	}

	/**
	 * A slot to try.
	 *
	 * @param <R> what the store read of each slot
	 * @param workerId the slot
	 * @param used the store's record of it, or {@code null} for a slot never used (the store creates its record)
	 */
	public record Candidate<R>(int workerId, @Nullable UsedSlot<R> used) {
	}

	/**
	 * Walks the three groups of the order: the preferred slot, the gaps, the free used slots.
	 */
	private static final class Order<R> implements Iterator<Candidate<R>> {

		private final LeaseRequest request;

		private final Map<Integer, UsedSlot<R>> byWorkerId;

		private final Iterator<UsedSlot<R>> freeForLongest;

		/** The preferred slot if it is free, offered first and then never again; -1 for none. */
		private final int preferred;

		private boolean preferredOffered;

		/** The next worker ID to look at for a gap; past maxWorkerId once the gaps are done. */
		private long nextGap;

		private @Nullable Candidate<R> next;

		Order(LeaseRequest request, int preferred, Map<Integer, UsedSlot<R>> byWorkerId,
				List<UsedSlot<R>> freeForLongest) {
			this.request = request;
			this.preferred = preferred;
			this.byWorkerId = byWorkerId;
			this.freeForLongest = freeForLongest.iterator();
		}

		@Override
		public boolean hasNext() {
			if (this.next == null) {
				this.next = advance();
			}
			return this.next != null;
		}

		@Override
		public Candidate<R> next() {
			if (!hasNext()) {
				throw new NoSuchElementException();
			}
			Candidate<R> candidate = this.next;
			this.next = null;
			return candidate;
		}

		private @Nullable Candidate<R> advance() {
			if (this.preferred >= 0 && !this.preferredOffered) {
				this.preferredOffered = true;
				return new Candidate<>(this.preferred, this.byWorkerId.get(this.preferred));
			}
			while (this.nextGap <= this.request.maxWorkerId()) {
				int workerId = (int) this.nextGap++;
				if (!this.byWorkerId.containsKey(workerId) && this.request.allows(workerId)
						&& workerId != this.preferred) {
					return new Candidate<>(workerId, null);
				}
			}
			return this.freeForLongest.hasNext() ? candidate(this.freeForLongest.next()) : null;
		}

		private Candidate<R> candidate(UsedSlot<R> slot) {
			return new Candidate<>(slot.workerId(), slot);
		}

	}

}
