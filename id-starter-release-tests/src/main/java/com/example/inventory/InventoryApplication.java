package com.example.inventory;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Snowflake IDs whose worker ID is leased from MongoDB.
 */
@SpringBootApplication
@EnableIdWorker(mode = IdWorkerMode.MONGO)
public class InventoryApplication {

	public static void main(String[] args) {
		SpringApplication.run(InventoryApplication.class, args);
	}

}
