package io.idstarter.app.shop;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A web and JPA application set up as the README says: {@code @EnableIdWorker} on the main class, with segment IDs
 * and Snowflake IDs whose worker ID is leased from the same database.
 */
@SpringBootApplication
@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.DB })
public class ShopApplication {

}
