package com.example.fleet;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Segment IDs and Snowflake IDs from the ID servers (client mode): ranges and the worker ID over HTTP, IDs from
 * memory.
 */
@SpringBootApplication
@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.HTTP })
public class OrderServiceApplication {

	public static void main(String[] args) {
		SpringApplication.run(OrderServiceApplication.class, args);
	}

}
