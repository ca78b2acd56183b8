package com.example.idserver;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.autoconfigure.SnowflakeIds;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

// tag::two-modes[]
@SpringBootApplication
@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.DB })
public class IdServer {

}

@RestController
class IdController {

	private final IdWorker segments;

	private final IdWorker snowflake;

	IdController(IdWorker segments,                       // primary: SEGMENT came first
			@SnowflakeIds IdWorker snowflake) {           // or @Qualifier("snowflakeIdWorker")
		this.segments = segments;
		this.snowflake = snowflake;
	}

	@GetMapping("/ids/order")
	long orderId() {
		return this.segments.nextId("order");
	}

	@GetMapping("/ids/event")
	long eventId() {
		return this.snowflake.nextId();
	}

}
// end::two-modes[]
