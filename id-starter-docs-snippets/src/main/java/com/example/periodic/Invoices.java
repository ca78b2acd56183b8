package com.example.periodic;

import java.time.ZoneId;
import java.util.List;

import io.idstarter.hibernate.PeriodicGeneratedId;
import io.idstarter.segment.PeriodicKey;
import io.idstarter.segment.PeriodicNumbers;
import io.idstarter.segment.ResetPeriod;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentStore;
import io.idstarter.time.TimeSource;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;

class Invoices {

	String withoutSpring(SegmentIdGenerator generator, SegmentStore store) {
		// tag::numbers[]
		PeriodicKey invoice = PeriodicKey.of("invoice", ResetPeriod.DAILY, "INV-{yyyyMMdd}-{seq:6}");
		PeriodicKey order = PeriodicKey.of("order", ResetPeriod.MONTHLY, "SO{yyyyMM}{seq:5}").withStep(50);
		ZoneId zone = ZoneId.of("Asia/Shanghai");   // whose midnight starts a day, the same on every node
		List<PeriodicKey> keys = List.of(invoice, order);
		PeriodicNumbers numbers = new PeriodicNumbers(generator, store, keys, zone, TimeSource.system());
		String number = numbers.next("invoice");    // INV-20261126-000001, drawn from segment key invoice:20261126
		List<String> deleted = numbers.removeExpired();    // also done when a node creates a new period's key
		// end::numbers[]
		return number + deleted;
	}

}

@Entity
class Invoice {

	// tag::entity[]
	@Id
	@PeriodicGeneratedId(key = "invoice")   // INV-20261126-000001 on insert
	private String number;
	// end::entity[]

}
