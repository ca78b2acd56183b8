package io.idstarter.hibernate.entities;

import io.idstarter.hibernate.SnowflakeGeneratedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity
@Table(name = "orders")
public class Order {

	@Id
	@SnowflakeGeneratedId
	private Long id;

	private String item;

	protected Order() {
	}

	public Order(String item) {
		this.item = item;
	}

	public Long getId() {
		return this.id;
	}

	public void setId(Long id) {
		this.id = id;
	}

	public String getItem() {
		return this.item;
	}

}
