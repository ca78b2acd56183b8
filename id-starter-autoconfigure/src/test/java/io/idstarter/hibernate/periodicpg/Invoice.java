package io.idstarter.hibernate.periodicpg;

import io.idstarter.hibernate.PeriodicGeneratedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "it_periodic_invoice")
public class Invoice {

	@Id
	@PeriodicGeneratedId(key = "invoice")
	private String number;

	private String customer;

	protected Invoice() {
	}

	public Invoice(String customer) {
		this.customer = customer;
	}

	public String getNumber() {
		return this.number;
	}

}
