package com.example.legacy;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Segment IDs on Spring Boot 3, which id-starter does not support: the start must fail with a report.
 */
@SpringBootApplication
@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
public class LegacyApplication {

	public static void main(String[] args) {
		SpringApplication.run(LegacyApplication.class, args);
	}

}
