package com.example.orders;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Segment IDs from the relational database ({@code leaf_alloc} in an embedded H2).
 */
@SpringBootApplication
@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
public class OrderApplication {

	public static void main(String[] args) {
		SpringApplication.run(OrderApplication.class, args);
	}

}
