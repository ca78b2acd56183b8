package io.idstarter.hibernate.mistyped;

import io.idstarter.hibernate.SnowflakeGeneratedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

@Entity
public class Counter {

	@Id
	@SnowflakeGeneratedId
	private Integer id;

	public Integer getId() {
		return this.id;
	}

}
