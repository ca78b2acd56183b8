package io.idstarter.app.shop;

import io.idstarter.IdWorker;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Hands out order IDs over HTTP.
 */
@RestController
class OrderIdController {

	private final IdWorker idWorker;

	OrderIdController(IdWorker idWorker) {
		this.idWorker = idWorker;
	}

	@GetMapping("/order-ids/next")
	long next() {
		return this.idWorker.nextId("order");
	}

}
