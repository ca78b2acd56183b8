package io.idstarter.hibernate.entities;

import io.idstarter.hibernate.SegmentGeneratedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

@Entity
public class Invoice {

	@Id
	@SegmentGeneratedId(key = "invoice")
	private long id;

	private String customer;

	protected Invoice() {
	}

	public Invoice(String customer) {
		this.customer = customer;
	}

	public long getId() {
		return this.id;
	}

}
