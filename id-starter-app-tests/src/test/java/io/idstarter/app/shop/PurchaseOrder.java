package io.idstarter.app.shop;

import io.idstarter.hibernate.SegmentGeneratedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

/**
 * An entity whose ID is a segment ID of key {@code order}.
 */
@Entity
public class PurchaseOrder {

	@Id
	@SegmentGeneratedId(key = "order")
	private Long id;

	private String item;

	protected PurchaseOrder() {
	}

	public PurchaseOrder(String item) {
		this.item = item;
	}

	public Long getId() {
		return this.id;
	}

	public String getItem() {
		return this.item;
	}

}
