package io.idstarter.app.shop;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.SnowflakeIds;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @DataJpaTest} of an application with {@code @EnableIdWorker(mode = { SEGMENT, DB })} on its main class has
 * both generators on the slice's (embedded) database, so entities with {@code @SegmentGeneratedId} are saved with
 * segment IDs. The key is created by Spring Boot's SQL initialisation, before the generators start and check that
 * the keys the entities name exist.
 */
@DataJpaTest(properties = { "spring.sql.init.schema-locations=classpath:io/idstarter/store/jdbc/schema-h2.sql",
		"spring.sql.init.data-locations=classpath:shop-keys.sql" })
class DataJpaSliceTests {

	@Autowired
	private PurchaseOrderRepository orders;

	@Autowired
	private IdWorker idWorker;

	@Autowired
	@SnowflakeIds
	private IdWorker snowflake;

	@Test
	void entitiesGetSegmentIds() {
		PurchaseOrder first = this.orders.save(new PurchaseOrder("book"));
		PurchaseOrder second = this.orders.save(new PurchaseOrder("pen"));
		assertThat(first.getId()).isEqualTo(1000);
		assertThat(second.getId()).isEqualTo(1001);
		assertThat(this.idWorker.nextId("order")).isEqualTo(1002);
		assertThat(this.snowflake.nextId()).isGreaterThan(1L << 22);
	}

}
