package io.idstarter.app;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An application set up as the README says, with segment IDs from the relational database and Snowflake IDs whose
 * worker ID is leased from Redis; the build processes it ahead of time ({@code spring-boot:process-aot}).
 */
@SpringBootApplication
@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.REDIS })
public class OrderApplication {

	public static void main(String[] args) {
		SpringApplication.run(OrderApplication.class, args);
	}

}
