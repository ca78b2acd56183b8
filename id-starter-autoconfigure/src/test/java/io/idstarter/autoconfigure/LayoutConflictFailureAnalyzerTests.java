package io.idstarter.autoconfigure;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.UnaryOperator;

import io.idstarter.IdWorkerListener;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.lease.LayoutConflictException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.SnowflakePresets;
import io.idstarter.time.TimeSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * What the failure analysis of a refused layout says, for each way a lease keeper refuses one, each produced by a
 * keeper on an in-memory store: it names what happened, what the record is now, and what to do.
 */
class LayoutConflictFailureAnalyzerTests {

	private static final SnowflakeLayout OLD = SnowflakeLayout.defaults();

	private static final SnowflakeLayout NEW = SnowflakePresets.twitter();

	private final InMemoryLeaseStore store = new InMemoryLeaseStore();

	private final String namespace = "analysis-" + UUID.randomUUID();

	private final List<WorkerLeaseKeeper> keepers = new ArrayList<>();

	@AfterEach
	void closeKeepers() {
		this.keepers.forEach(WorkerLeaseKeeper::close);
	}

	@Test
	void aNodeOfAnotherLayoutIsToldToConfigureTheRecordedOneOrChangeIt() {
		start(OLD, UnaryOperator.identity());
		FailureAnalysis analysis = analysis(NEW, UnaryOperator.identity());
		assertThat(analysis.getDescription()).contains("differs from the one recorded for lease namespace '"
				+ this.namespace + "'");
		assertThat(analysis.getAction()).contains("id-worker.snowflake.preset",
				"id-worker.snowflake.layout-change.from=" + this.store.readLayout(this.namespace));
	}

	@Test
	void aPlannedChangeRefusedWhileAnOldNodeRunsSaysTheRecordIsUnchanged() {
		start(OLD, UnaryOperator.identity());
		String before = this.store.readLayout(this.namespace);
		FailureAnalysis analysis = analysis(NEW, (settings) -> settings.replacedLayout(before));
		assertThat(analysis.getDescription()).contains("planned Snowflake layout change", "refused",
				"still held under the old layout");
		assertThat(analysis.getAction()).contains("record is unchanged");
		assertThat(this.store.readLayout(this.namespace)).isEqualTo(before);
	}

	@Test
	void aNodeWhoseClockIsBehindTheRecordsFloorIsToldToCheckItsClockNotThatAChangeWasRefused() {
		long floorId = NEW.compose(System.currentTimeMillis() + Duration.ofHours(1).toMillis(), 0, 0);
		this.store.recordLayout(this.namespace, new RecordedLayout(NEW, "twitter").completedAbove(floorId).format());
		FailureAnalysis analysis = analysis(NEW, UnaryOperator.identity());
		assertThat(analysis.getDescription()).doesNotContain("change").contains("sort below ID " + floorId);
		assertThat(analysis.getAction()).doesNotContain("layout-change.from")
			.contains("clock", "NTP", "id-worker.lease.max-startup-wait");
	}

	@Test
	void aNodeRefusedWhileCompletingAnotherNodesChangeSaysTheRecordIsLeftPending() {
		String old = new RecordedLayout(OLD, null).format();
		this.store.recordLayout(this.namespace, old);
		this.store.borrow(new LeaseRequest(this.namespace, OLD.maxWorkerId(), Duration.ofMinutes(1), -1, "old-node",
				System.currentTimeMillis()));
		String pending = new RecordedLayout(NEW, null).replacing(RecordedLayout.parse(old)).format();
		this.store.replaceLayout(this.namespace, old, pending);
		FailureAnalysis analysis = analysis(NEW, UnaryOperator.identity());
		assertThat(analysis.getDescription()).contains("still held under the old layout");
		assertThat(analysis.getAction()).doesNotContain("unchanged").contains("pending");
		assertThat(this.store.readLayout(this.namespace)).isEqualTo(pending);
	}

	@Test
	void aNodeThatFindsTheRecordMissingWhileWorkerIdsAreHeldIsToldToStartAfterTheirRenewalOrWaitLonger() {
		start(OLD, UnaryOperator.identity());
		this.store.forgetLayout(this.namespace);
		FailureAnalysis analysis = analysis(NEW, UnaryOperator.identity());
		assertThat(analysis.getDescription()).contains("is missing while worker IDs [0] are held");
		assertThat(analysis.getAction()).contains("next renewal", "id-worker.lease.max-startup-wait",
				"Nothing was recorded");
		assertThat(this.store.readLayout(this.namespace)).isNull();
	}

	private FailureAnalysis analysis(SnowflakeLayout layout, UnaryOperator<LeaseSettings.Builder> settings) {
		LayoutConflictException refusal = catchThrowableOfType(LayoutConflictException.class,
				() -> start(layout, settings));
		assertThat(refusal).as("the start is refused").isNotNull();
		FailureAnalysis analysis = new LayoutConflictFailureAnalyzer()
			.analyze(new BeanCreationException("leasedSnowflakeWorker", refusal));
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).contains(refusal.getMessage());
		return analysis;
	}

	private void start(SnowflakeLayout layout, UnaryOperator<LeaseSettings.Builder> settings) {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(layout, TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(this.store, generator, settings.apply(LeaseSettings.builder()
			.namespace(this.namespace)
			.ttl(Duration.ofSeconds(30))
			.heartbeat(Duration.ofSeconds(10))
			.maxStartupWait(Duration.ofMillis(100))).build(), TimeSource.system(), IdWorkerListener.NONE);
		this.keepers.add(keeper);
		keeper.start();
	}

}
