package io.idstarter.startup.db;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.startup.StartupProbe;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * DB mode: Snowflake IDs under a worker ID leased from the application's database (the embedded H2).
 */
@SpringBootApplication
@EnableIdWorker(mode = IdWorkerMode.DB)
public class DbApplication {

	public static void main(String[] args) {
		StartupProbe.run(DbApplication.class, args);
	}

}
