package io.idstarter.hibernate.entities;

import io.idstarter.hibernate.SnowflakeGeneratedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

@Entity
public class Ticket {

	@Id
	@SnowflakeGeneratedId
	private String id;

	protected Ticket() {
	}

	public static Ticket create() {
		return new Ticket();
	}

	public String getId() {
		return this.id;
	}

}
