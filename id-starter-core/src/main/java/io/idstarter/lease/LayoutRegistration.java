package io.idstarter.lease;

import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.idstarter.IdGenerationException;
import io.idstarter.lease.LayoutConflictException.Reason;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.time.TimeSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a node to the layout recorded for its namespace: records it for the first node, refuses a node whose layout
 * differs, has a planned change carried out ({@link LayoutChange}), waits for the clock to pass the record's floor,
 * and records again a record the store lost. Called by the lease heartbeat under its lock, before and after every
 * borrow and after every renewal.
 */
final class LayoutRegistration {

	/*
	 * The record is read (one read, no write) before every borrow, and after every borrow and renewal before the
	 * store's answer is granted (confirm). It is written only when none is found.
	 *
	 * A lost record (a store that lost it: Redis without persistence, a failover to a replica that missed it, a delete
	 * by hand) must not be recorded again by whichever node asks first, which may be of another layout than the running
	 * nodes':
	 *   - a node that holds a slot and finds no record at a renewal records again the record it last held to, with
	 *     its floor-id (heal forward);
	 *   - a node that finds no record at start while slots are held records nothing until each holder it saw has
	 *     renewed twice (its slot's mark moved twice: every renewal raises it) or let its lease end, reading the record
	 *     again meanwhile, and follows the record if it appears. A holder of this version looks at the record after
	 *     each renewal and before its next one, so after its second renewal the record it re-created is there; one
	 *     renewal is not enough, as the holder may not have looked yet. Holders that renewed twice without recording
	 *     it record none (nodes before 0.2.0): this node records its own and names them in a WARN. When the budget
	 *     (maxStartupWait) runs out first, this node refuses to start and records nothing: the running nodes' record
	 *     is theirs to restore, and both layouts would otherwise issue until their next renewal. Where no slot is
	 *     held, no node could record it again: the node records at once (a fresh namespace, or one whose nodes all
	 *     stopped).
	 * Not covered: a record lost while no node of the namespace runs; the first node to start records its layout.
	 *
	 * A store that answers it keeps no layouts is asked again at the next call: an ID server of an older version that
	 * answers 404 during a rolling upgrade turns no check off for the node's lifetime.
	 */

	private static final Logger logger = LoggerFactory.getLogger(LayoutRegistration.class);

	/** Time between two reads of a lost record at start. */
	private static final long RECORD_POLL_MILLIS = 250;

	private final InstrumentedLeaseStore store;

	private final RecordedLayout own;

	private final String ownText;

	private final @Nullable RecordedLayout changeFrom;

	private final LayoutChange change;

	private final LeaseSettings settings;

	private final TimeSource time;

	/** The record as this node last read it while holding to it: what a renewal that finds none records again. */
	private @Nullable String held;

	/** Whether the store's answer that it keeps no layouts was logged; logged once, asked again at every call. */
	private boolean notKeptLogged;

	/** The greatest timestamp this node must not issue at: the record's floor, or the takeover's; -1 for none. */
	private long floorMillis = -1;

	LayoutRegistration(InstrumentedLeaseStore store, RecordedLayout own, LeaseSettings settings, TimeSource time) {
		this.store = store;
		this.own = own;
		this.ownText = own.format();
		this.changeFrom = settings.replacedLayout();
		this.change = new LayoutChange(store, own, settings, time);
		this.settings = settings;
		this.time = time;
	}

	/**
	 * Records this node's layout, or checks it against the recorded one, carrying out or completing a planned change;
	 * then waits, within the start's budget, for the clock to pass the record's floor and the takeover's instant.
	 * @param wait the start's wait
	 * @throws LayoutConflictException if the layouts differ and no change was asked for, a change is refused, or the
	 * clock does not pass the floor in time
	 */
	void register(StartupWait wait) {
		for (int attempt = 0;; attempt++) {
			Read read = read();
			String text = (read.kept() && read.text() == null) ? recordAfterWaiting(wait) : read.text();
			if (text == null) {
				awaitFloor(null, wait);
				return;
			}
			RecordedLayout recorded = parse(text);
			String settled;
			if (recorded.sameLayoutAs(this.own)) {
				settled = recorded.pending() ? this.change.complete(text, recorded, null, wait) : text;
			}
			else if (this.changeFrom != null && !recorded.pending() && recorded.sameLayoutAs(this.changeFrom)) {
				settled = this.change.start(text, recorded, wait);
			}
			else {
				throw differs(text, recorded);
			}
			if (settled != null) {
				this.held = settled;
				awaitFloor(parse(settled), wait);
				return;
			}
			if (attempt >= 2) {
				throw new LeaseStoreException(prefix() + "the layout record of namespace '" + this.settings.namespace()
						+ "' changed under every attempt to replace it; start again");
			}
		}
	}

	/**
	 * Checks, after a borrow or a renewal and before its answer is granted, that the record is still this node's
	 * layout with no change pending; records it again if the store lost it.
	 * @param workerId the slot borrowed or renewed
	 * @throws LayoutConflictException if it is not
	 */
	void confirm(int workerId) {
		Read read = read();
		String text = (read.kept() && read.text() == null) ? recordAgain(workerId) : read.text();
		if (text == null) {
			return;
		}
		RecordedLayout recorded = parse(text);
		if (!recorded.sameLayoutAs(this.own) || recorded.pending()) {
			throw new LayoutConflictException(this.settings.logPrefix(workerId) + "the layout record of namespace '"
					+ this.settings.namespace() + "' is now " + recorded.describe() + ", not this node's ("
					+ this.own.describe() + "), so this node stops issuing and gives its worker ID back: IDs of two "
					+ "layouts would collide. " + whatNext(recorded), this.settings.namespace(), this.own, text,
					Reason.LAYOUT_DIFFERS);
		}
		this.held = text;
	}

	/**
	 * What to do when a running node finds another record: a planned change, or a record written by a node of another
	 * layout after the store lost this one. Only the operator can tell.
	 */
	private String whatNext(RecordedLayout recorded) {
		RecordedLayout replacing = recorded.replacing();
		if (replacing != null && replacing.layout().equals(this.own.layout())) {
			return "A planned change from this node's layout is under way: restart this node with the new layout once "
					+ "it is complete";
		}
		return "If the namespace's layout was changed on purpose, restart this node with the new layout. If not (a "
				+ "node of that layout recorded it, for instance after the store lost this namespace's record), stop "
				+ "the nodes of that layout and delete the record (docs/snowflake.md, \"A lost record\"): this node "
				+ "then records its own again, with its floor-id, at its next attempt to borrow, every heartbeat";
	}

	/**
	 * Returns this node's layout in stored form, which it names in its borrows.
	 */
	String ownText() {
		return this.ownText;
	}

	/**
	 * Returns the greatest timestamp this node must not issue at: the record's floor or the takeover's instant, or
	 * -1.
	 */
	long floorMillis() {
		return this.floorMillis;
	}

	/**
	 * Reads the record: one read, which writes nothing.
	 */
	private Read read() {
		try {
			return new Read(true, this.store.readLayout());
		}
		catch (UnsupportedOperationException ex) {
			notKept(ex.getMessage());
			return new Read(false, null);
		}
	}

	/**
	 * Records this node's layout where none is found and no slot is held; where slots are held, waits until each
	 * holder renewed twice or let its lease end, following the record if it appears meanwhile.
	 * @return the record, or {@code null} if the store keeps no layouts
	 * @throws LayoutConflictException if the budget runs out first
	 */
	private @Nullable String recordAfterWaiting(StartupWait wait) {
		Map<Integer, Long> seen = new TreeMap<>();
		for (SlotMark mark : this.store.slotMarks()) {
			if (mark.held()) {
				seen.put(mark.workerId(), mark.maxTimestamp());
			}
		}
		if (seen.isEmpty()) {
			return recordOrNotKept(ownRecord());
		}
		logger.warn("{}namespace '{}' has no layout record although worker IDs {} are held: the store may have lost it; "
				+ "waiting up to {} ms (what is left of maxStartupWait) for their nodes to record it again at their "
				+ "renewals, or to renew twice without it (nodes before 0.2.0) or end their leases, before recording "
				+ "this node's layout", prefix(), this.settings.namespace(), seen.keySet(), wait.remainingMillis());
		Map<Integer, Integer> renewals = new TreeMap<>();
		Set<Integer> renewedTwice = new TreeSet<>();
		for (;;) {
			// read after the slots: a holder seen renewing twice looked at the record before its second renewal
			Read again = read();
			if (!again.kept()) {
				return null;
			}
			if (again.text() != null) {
				logger.info("{}the layout record of namespace '{}' was recorded again: {}", prefix(),
						this.settings.namespace(), again.text());
				return again.text();
			}
			if (seen.isEmpty()) {
				break;
			}
			if (!wait.pause(RECORD_POLL_MILLIS, "the lost layout record")) {
				throw recordMissing(seen.keySet(), wait);
			}
			Map<Integer, SlotMark> now = new TreeMap<>();
			this.store.slotMarks().forEach((mark) -> now.put(mark.workerId(), mark));
			for (Iterator<Map.Entry<Integer, Long>> holders = seen.entrySet().iterator(); holders.hasNext();) {
				Map.Entry<Integer, Long> holder = holders.next();
				SlotMark mark = now.get(holder.getKey());
				if (mark == null || !mark.held()) {
					holders.remove();
				}
				else if (mark.maxTimestamp() > holder.getValue()) {
					holder.setValue(mark.maxTimestamp());
					if (renewals.merge(holder.getKey(), 1, Integer::sum) == 2) {
						renewedTwice.add(holder.getKey());
						holders.remove();
					}
				}
			}
		}
		if (!renewedTwice.isEmpty()) {
			logger.warn("{}worker IDs {} of namespace '{}' renewed twice without recording a layout: their nodes "
					+ "record none (id-starter before 0.2.0), so nodes of another layout are not refused beside them; "
					+ "recording this node's layout. Upgrade them", prefix(), renewedTwice, this.settings.namespace());
		}
		return recordOrNotKept(ownRecord());
	}

	private LayoutConflictException recordMissing(Set<Integer> held, StartupWait wait) {
		return new LayoutConflictException(prefix() + "the layout record of namespace '" + this.settings.namespace()
				+ "' is missing while worker IDs " + held + " are held, and their nodes neither recorded it again, "
				+ "renewed twice nor ended their leases within maxStartupWait (" + LeaseSettings.format(wait.budget())
				+ "), so this node records no layout and issues nothing: its layout could differ from theirs. A running "
				+ "node of id-starter 0.2.0 or later records the lost record again at its next renewal (every "
				+ "heartbeat): start this node again after it, or raise id-worker.lease.max-startup-wait above two of "
				+ "the running nodes' heartbeats", this.settings.namespace(), this.own, null, Reason.RECORD_MISSING);
	}

	/**
	 * Returns the record this node writes where none is found: the one it last held to (with its floor-id), else its
	 * own layout.
	 */
	private String ownRecord() {
		return (this.held != null) ? this.held : this.ownText;
	}

	/**
	 * Records again, at a renewal, the record this node held to, which the store lost.
	 * @return the record now, or {@code null} if the store keeps no layouts
	 */
	private @Nullable String recordAgain(int workerId) {
		String text = ownRecord();
		logger.warn("{}the layout record of namespace '{}' is gone (a store that lost it: no persistence, a failover, "
				+ "a delete); recording again the one this node holds to: {}", this.settings.logPrefix(workerId),
				this.settings.namespace(), text);
		return recordOrNotKept(text);
	}

	private @Nullable String recordOrNotKept(String text) {
		String recorded = this.store.recordLayout(text);
		if (recorded == null) {
			notKept("recordLayout answered null");
		}
		return recorded;
	}

	private void notKept(@Nullable String why) {
		if (!this.notKeptLogged) {
			this.notKeptLogged = true;
			logger.warn("{}the lease store keeps no layouts ({}): a node of another Snowflake layout in this namespace "
					+ "is not refused while it answers so; it is asked again at every renewal", prefix(), why);
		}
	}

	/**
	 * Waits for this node's clock to pass the record's floor and the takeover's instant, the later of the two.
	 * @param recorded the record, or {@code null} if the store keeps no layouts
	 */
	private void awaitFloor(@Nullable RecordedLayout recorded, StartupWait wait) {
		long recordFrom = (recorded != null) ? LayoutChangeCheck.notBefore(this.own.layout(), recorded.floorId()) : 0;
		Instant issueFrom = this.settings.issueFrom();
		long takeoverFrom = (issueFrom != null) ? issueFrom.toEpochMilli() : 0;
		long from = Math.max(recordFrom, takeoverFrom);
		this.floorMillis = (from > 0) ? from - 1 : -1;
		if (from == 0 || from <= this.time.currentTimeMillis()) {
			return;
		}
		if (from != Long.MAX_VALUE) {
			logger.info("{}waiting up to {} ms for this node's clock to reach {}, from which its IDs sort above {}",
					prefix(), wait.remainingMillis(), Instant.ofEpochMilli(from), (recordFrom >= takeoverFrom)
							? "ID " + recorded.floorId() + " of the layout the record replaced"
							: "the largest ID of id-worker.snowflake.takeover.columns");
			if (wait.untilClockPast(from - 1, "the layout's floor")) {
				return;
			}
		}
		String when = (from == Long.MAX_VALUE) ? "until this layout's timestamps run out"
				: "before " + Instant.ofEpochMilli(from) + ", further than maxStartupWait ("
						+ LeaseSettings.format(wait.budget()) + ") ahead of this node's clock "
						+ Instant.ofEpochMilli(this.time.currentTimeMillis());
		if (recordFrom < takeoverFrom) {
			throw new IdGenerationException(prefix() + "this node's IDs sort above the largest ID of "
					+ "id-worker.snowflake.takeover.columns only from " + issueFrom + ", and its clock did not reach it "
					+ "within maxStartupWait (" + LeaseSettings.format(wait.budget()) + "); check this node's clock "
					+ "(NTP)");
		}
		throw new LayoutConflictException(prefix() + "this node's IDs would sort below ID " + recorded.floorId()
				+ ", the greatest the layout replaced in namespace '" + this.settings.namespace() + "' allows, "
				+ when + "; check this node's clock (NTP)", this.settings.namespace(), this.own, recorded.format(),
				Reason.CLOCK_BEHIND_FLOOR);
	}

	private LayoutConflictException differs(String text, RecordedLayout recorded) {
		String change = (this.changeFrom != null && recorded.pending())
				? "; a change to that layout is not yet complete, so it cannot be changed again now"
				: (this.changeFrom != null) ? "; the planned change names " + this.changeFrom.describe()
						+ ", not the recorded layout" : "";
		return new LayoutConflictException(prefix() + "this node's Snowflake layout (" + this.own.describe()
				+ ") differs from the one recorded for namespace '" + this.settings.namespace() + "' ("
				+ recorded.describe() + ")" + change + ": nodes of two layouts issue IDs that collide, so this node "
				+ "issues none. Configure it with the recorded layout, give it a namespace of its own, or change the "
				+ "namespace's layout as a planned change naming the recorded layout '" + text + "'",
				this.settings.namespace(), this.own, text, Reason.LAYOUT_DIFFERS);
	}

	private RecordedLayout parse(String text) {
		try {
			return RecordedLayout.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new LeaseStoreException(prefix() + "the layout record of namespace '" + this.settings.namespace()
					+ "' cannot be read: " + ex.getMessage(), ex);
		}
	}

	private String prefix() {
		return this.settings.logPrefix(-1);
	}

	/**
	 * One read of the record.
	 *
	 * @param kept whether the store answered that it keeps layouts
	 * @param text the record, or {@code null} if none is recorded or the store keeps none
	 */
	private record Read(boolean kept, @Nullable String text) {
	}

}
