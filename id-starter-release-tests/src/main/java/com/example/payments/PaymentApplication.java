package com.example.payments;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Snowflake IDs whose worker ID is leased from the relational database ({@code id_worker_lease} in an embedded H2).
 */
@SpringBootApplication
@EnableIdWorker(mode = IdWorkerMode.DB)
public class PaymentApplication {

	public static void main(String[] args) {
		SpringApplication.run(PaymentApplication.class, args);
	}

}
