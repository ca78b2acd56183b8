package com.example.entities;

import io.idstarter.hibernate.SegmentGeneratedId;
import io.idstarter.hibernate.SnowflakeGeneratedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

// tag::jpa[]
@Entity
class Order {

	@Id
	@SnowflakeGeneratedId
	private Long id;

}

@Entity
class Invoice {

	@Id
	@SegmentGeneratedId(key = "invoice")
	private long id;

}
// end::jpa[]

@Entity
class PurchaseOrder {

	// tag::sequence[]
	@Id
	@SegmentGeneratedId(key = "order")   // served from orders_seq through the node's double buffer
	private Long id;
	// end::sequence[]

}
