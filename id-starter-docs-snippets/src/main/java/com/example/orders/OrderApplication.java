// tag::quickstart[]
package com.example.orders;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.stereotype.Service;

@SpringBootApplication
@EnableIdWorker(mode = IdWorkerMode.SEGMENT)   // or a Snowflake mode: DB, REDIS, MONGO, ZOOKEEPER, ETCD, KUBERNETES or HTTP
public class OrderApplication {

	public static void main(String[] args) {
		SpringApplication.run(OrderApplication.class, args);
	}

}

@Service
class OrderService {

	private final IdWorker idWorker;

	OrderService(IdWorker idWorker) {
		this.idWorker = idWorker;
	}

	long newOrderId() {
		return this.idWorker.nextId("order");
	}

}
// end::quickstart[]
