package io.idstarter.hibernate.periodic;

import io.idstarter.hibernate.PeriodicGeneratedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

@Entity
public class Receipt {

	@Id
	@PeriodicGeneratedId(key = "receipt")
	private String number;

	private String customer;

	protected Receipt() {
	}

	public Receipt(String customer) {
		this.customer = customer;
	}

	public Receipt(String number, String customer) {
		this.number = number;
		this.customer = customer;
	}

	public String getNumber() {
		return this.number;
	}

}
