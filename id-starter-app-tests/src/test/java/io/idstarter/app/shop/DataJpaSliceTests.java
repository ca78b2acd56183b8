package io.idstarter.app.shop;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.SnowflakeIds;
import io.idstarter.segment.SegmentKeyAdmin;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @DataJpaTest} of an application with {@code @EnableIdWorker(mode = { SEGMENT, DB })} on its main class has
 * both generators on the slice's (embedded) database, so entities with {@code @SegmentGeneratedId} are saved with
 * segment IDs.
 */
@DataJpaTest
class DataJpaSliceTests {

	@Autowired
	private PurchaseOrderRepository orders;

	@Autowired
	private SegmentKeyAdmin keys;

	@Autowired
	private IdWorker idWorker;

	@Autowired
	@SnowflakeIds
	private IdWorker snowflake;

	@Test
	void entitiesGetSegmentIds() {
		this.keys.createKey("order", 1000, 100, "slice test");
		PurchaseOrder first = this.orders.save(new PurchaseOrder("book"));
		PurchaseOrder second = this.orders.save(new PurchaseOrder("pen"));
		assertThat(first.getId()).isEqualTo(1000);
		assertThat(second.getId()).isEqualTo(1001);
		assertThat(this.idWorker.nextId("order")).isEqualTo(1002);
		assertThat(this.snowflake.nextId()).isGreaterThan(1L << 22);
	}

}
