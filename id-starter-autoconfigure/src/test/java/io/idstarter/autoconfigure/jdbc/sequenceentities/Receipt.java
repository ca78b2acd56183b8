package io.idstarter.autoconfigure.jdbc.sequenceentities;

import io.idstarter.hibernate.SegmentGeneratedId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

@Entity
public class Receipt {

	@Id
	@SegmentGeneratedId(key = "receipt")
	private Long id;

	public Long getId() {
		return this.id;
	}

}
