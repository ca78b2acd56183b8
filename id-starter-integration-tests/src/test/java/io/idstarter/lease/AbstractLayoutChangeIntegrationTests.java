package io.idstarter.lease;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import io.idstarter.IdWorkerListener;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.SnowflakePresets;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A namespace's layout record and a planned layout change, through lease keepers on a real store and this machine's
 * clock: a node of another layout is refused; a change is refused while a node of the old layout runs and when its
 * IDs would sort below the old ones, leaving the record as it was; after the old nodes stopped it is made, and every
 * ID of the new layout sorts above every ID the old one issued; a node that finds the record lost while a node runs
 * records nothing and is refused until the running node records it again at its renewal.
 */
@Timeout(60)
public abstract class AbstractLayoutChangeIntegrationTests {

	/** The old layout: id-starter's default (epoch 2020). */
	private static final SnowflakeLayout OLD = SnowflakeLayout.defaults();

	/** A new layout whose IDs of today are far above the old one's: Twitter's earlier epoch, same widths. */
	private static final SnowflakeLayout TWITTER = SnowflakePresets.twitter();

	/** A new layout whose IDs of today are far below the old one's: an epoch of yesterday. */
	private static final SnowflakeLayout RECENT_EPOCH = SnowflakeLayout.of(
			Instant.now().minus(Duration.ofDays(1)), 41, 10, 12);

	private String namespace;

	private final List<WorkerLeaseKeeper> keepers = new ArrayList<>();

	/**
	 * Returns the store under test, shared by every node of a test.
	 * @return the store
	 */
	protected abstract ISequenceManager store();

	/**
	 * Deletes the namespace's layout record, as a store that lost it would (no persistence, a failover, a delete by
	 * hand).
	 * @param namespace the namespace
	 */
	protected abstract void deleteLayoutRecord(String namespace);

	@BeforeEach
	void newNamespace() {
		this.namespace = "layout-it-" + UUID.randomUUID().toString().substring(0, 8);
	}

	@AfterEach
	void closeKeepers() {
		this.keepers.forEach(WorkerLeaseKeeper::close);
		this.keepers.clear();
	}

	private Node node(SnowflakeLayout layout, UnaryOperator<LeaseSettings.Builder> settings) {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(store(), generator, settings.apply(LeaseSettings.builder()
			.namespace(this.namespace)
			.ttl(Duration.ofSeconds(10))
			.heartbeat(Duration.ofSeconds(2))
			.safetyMargin(Duration.ofSeconds(2))
			.maxStartupWait(Duration.ofSeconds(2))).build(), TimeSource.system(), IdWorkerListener.NONE);
		this.keepers.add(keeper);
		return new Node(generator, keeper);
	}

	private Node changer(SnowflakeLayout layout) {
		return node(layout, (settings) -> settings.replacedLayout(new RecordedLayout(OLD, null).format()));
	}

	private String recorded() {
		return store().readLayout(this.namespace);
	}

	@Test
	void aNodeOfAnotherLayoutIsRefusedAndAChangeIsRefusedWhileAnOldNodeRuns() {
		Node old = node(OLD, UnaryOperator.identity());
		old.keeper().start();
		String before = recorded();
		assertThat(RecordedLayout.parse(before).layout()).isEqualTo(OLD);
		assertThatExceptionOfType(LayoutConflictException.class)
			.isThrownBy(() -> node(TWITTER, UnaryOperator.identity()).keeper().start())
			.withMessageContaining("differs from the one recorded");
		assertThatExceptionOfType(LayoutConflictException.class).isThrownBy(() -> changer(TWITTER).keeper().start())
			.withMessageContaining("worker IDs [" + old.generator().workerId().getAsInt() + "] are still held");
		assertThat(recorded()).isEqualTo(before);
		assertThat(old.generator().nextId()).isPositive();
	}

	@Test
	void aChangeWhoseIdsWouldSortBelowTheOldOnesIsRefusedAndTheRecordStays() {
		Node old = node(OLD, UnaryOperator.identity());
		old.keeper().start();
		old.generator().nextId();
		old.keeper().close();
		String before = recorded();
		assertThatExceptionOfType(LayoutConflictException.class)
			.isThrownBy(() -> changer(RECENT_EPOCH).keeper().start())
			.withMessageContaining("would sort above every ID the slots' marks allow under the old layout only from");
		assertThat(recorded()).isEqualTo(before);
		node(OLD, UnaryOperator.identity()).keeper().start();
	}

	@Test
	void afterTheOldNodesStoppedTheChangeIsMadeAndEveryNewIdSortsAboveEveryOldOne() {
		long lastOld = 0;
		for (int i = 0; i < 2; i++) {
			Node old = node(OLD, UnaryOperator.identity());
			old.keeper().start();
			for (int n = 0; n < 10_000; n++) {
				lastOld = Math.max(lastOld, old.generator().nextId());
			}
		}
		this.keepers.forEach(WorkerLeaseKeeper::close);
		Node changer = changer(TWITTER);
		changer.keeper().start();
		RecordedLayout record = RecordedLayout.parse(recorded());
		assertThat(record.layout()).isEqualTo(TWITTER);
		assertThat(record.pending()).isFalse();
		assertThat(record.floorId()).isGreaterThanOrEqualTo(lastOld);
		assertThat(changer.generator().nextId()).isGreaterThan(record.floorId());
		Node later = node(TWITTER, UnaryOperator.identity());
		later.keeper().start();
		assertThat(later.generator().nextId()).isGreaterThan(lastOld);
		assertThatExceptionOfType(LayoutConflictException.class)
			.isThrownBy(() -> node(OLD, UnaryOperator.identity()).keeper().start());
		assertThat(store().slotMarks(this.namespace)).filteredOn(SlotMark::held).hasSize(2);
	}

	@Test
	void aNodeThatFindsTheRecordLostWhileANodeRunsIsRefusedUntilTheRunningNodeRecordsItAgain() throws Exception {
		Node old = node(OLD, UnaryOperator.identity());
		old.keeper().start();
		old.generator().nextId();
		old.keeper().close();
		// the running node renews when the test says so: its next renewal is far off
		Node running = changer(TWITTER);
		running.keeper().startLease(false);
		String changed = recorded();
		deleteLayoutRecord(this.namespace);
		assertThat(recorded()).isNull();
		assertThatExceptionOfType(LayoutConflictException.class)
			.isThrownBy(() -> node(OLD, (settings) -> settings.maxStartupWait(Duration.ofSeconds(1))).keeper().start())
			.withMessageContaining("is missing while worker IDs [" + running.generator().workerId().getAsInt()
					+ "] are held")
			.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo(LayoutConflictException.Reason.RECORD_MISSING));
		assertThat(recorded()).as("nothing recorded").isNull();
		assertThat(running.generator().nextId()).isGreaterThan(RecordedLayout.parse(changed).floorId());
		// with a longer budget it reads the record again while the running node renews and records it again
		Node late = node(OLD, (settings) -> settings.maxStartupWait(Duration.ofSeconds(20)));
		CompletableFuture<Void> started = CompletableFuture.runAsync(() -> late.keeper().start());
		Thread.sleep(500);
		running.keeper().heartbeat();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> started.get(20, TimeUnit.SECONDS))
			.havingCause()
			.isInstanceOf(LayoutConflictException.class)
			.withMessageContaining("differs from the one recorded");
		assertThat(recorded()).as("recorded again as the running node held to it, with its floor").isEqualTo(changed);
		assertThat(running.generator().nextId()).isGreaterThan(RecordedLayout.parse(changed).floorId());
	}

	private record Node(SnowflakeIdGenerator generator, WorkerLeaseKeeper keeper) {
	}

}
