package com.example.orders;

import java.util.HashSet;
import java.util.Set;

import io.idstarter.IdWorker;
import io.idstarter.segment.SegmentIdGenerator;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(properties = { "spring.datasource.url=jdbc:h2:mem:orders;DB_CLOSE_DELAY=-1",
		"id-worker.segment.keys.order.step=100" })
class OrderApplicationTests {

	@Autowired
	private IdWorker idWorker;

	@Autowired
	private OrderService orders;

	@Test
	void segmentIdsFromTheEmbeddedDatabaseAreUniqueAndIncreasing() {
		assertThat(this.idWorker).isInstanceOf(SegmentIdGenerator.class);
		Set<Long> ids = new HashSet<>();
		long previous = 0;
		for (int i = 0; i < 1000; i++) {
			long id = this.orders.newOrderId();
			assertThat(id).isGreaterThan(previous);
			assertThat(ids.add(id)).isTrue();
			previous = id;
		}
		System.out.printf("release SEGMENT (jdbc, H2): %d IDs, 0 duplicates%n", ids.size());
	}

}
