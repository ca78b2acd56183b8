package io.idstarter.sample.fleet;

import java.time.Duration;

import io.idstarter.lease.WorkerLease;
import io.idstarter.segment.SegmentAllocation;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The activity records behind the monitor stay bounded however many slots and keys clients use.
 */
class FleetActivityTests {

	@Test
	void holdersAndDrawsAreBounded() {
		FleetActivity activity = new FleetActivity();
		long now = System.currentTimeMillis();
		for (int i = 0; i < 3 * FleetActivity.MAX_RECORDS; i++) {
			activity.leased("c", "host:1", new WorkerLease("ns-" + i, 0, "token-" + i, Duration.ofHours(1), -1, now,
					now));
			activity.drew("c", new SegmentAllocation("key-" + i, 1, 11, 10));
		}
		assertThat(activity.holders()).hasSizeLessThanOrEqualTo(FleetActivity.MAX_RECORDS);
		assertThat(activity.draws()).hasSizeLessThanOrEqualTo(FleetActivity.MAX_RECORDS);
		activity.leased("c", "host:1", new WorkerLease("latest", 0, "t", Duration.ofHours(1), -1, now, now));
		assertThat(activity.holders()).as("the latest grant is shown").anyMatch((h) -> h.namespace().equals("latest"));
	}

}
