package io.idstarter.app;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.SnowflakeIds;

import org.springframework.stereotype.Service;

/**
 * Order and event IDs: the README's service, plus the Snowflake generator injected by its qualifier.
 */
@Service
public class OrderService {

	private final IdWorker idWorker;

	private final IdWorker snowflake;

	OrderService(IdWorker idWorker, @SnowflakeIds IdWorker snowflake) {
		this.idWorker = idWorker;
		this.snowflake = snowflake;
	}

	public long newOrderId() {
		return this.idWorker.nextId("order");
	}

	public long newEventId() {
		return this.snowflake.nextId();
	}

}
