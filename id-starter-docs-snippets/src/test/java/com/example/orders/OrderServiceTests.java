package com.example.orders;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

// tag::in-memory[]
@SpringBootTest(properties = { "id-worker.testing.in-memory-stores=true",
		"id-worker.segment.keys.order.first-id=1000" })
class OrderServiceTests {

	@Autowired
	OrderService orders;

	@Test
	void ordersGetSegmentIds() {
		assertThat(this.orders.newOrderId()).isEqualTo(1000);
	}

}
// end::in-memory[]
