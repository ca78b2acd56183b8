package io.idstarter.lease;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link WorkerLease}.
 */
class WorkerLeaseTests {

	@Test
	void releaseMarkIsTheReportedTimestampButNeverBelowTheFloorAndUnknownKeepsTheMark() {
		WorkerLease lease = new WorkerLease("ns", 0, "token", Duration.ofSeconds(30), 1000, 5000, 0);
		assertThat(lease.releaseMark(3000)).isEqualTo(3000);
		assertThat(lease.releaseMark(500)).as("never below the floor").isEqualTo(1000);
		assertThat(lease.releaseMark(-1)).as("unknown: the store keeps its mark").isEqualTo(-1);
		WorkerLease neverUsed = new WorkerLease("ns", 0, "token", Duration.ofSeconds(30), -1, 5000, 0);
		assertThat(neverUsed.releaseMark(0)).isZero();
	}

}
