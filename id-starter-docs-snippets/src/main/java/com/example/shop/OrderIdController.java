package com.example.shop;

import io.idstarter.IdWorker;

import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
class OrderIdController {

	private final IdWorker idWorker;

	OrderIdController(IdWorker idWorker) {
		this.idWorker = idWorker;
	}

	@PostMapping("/orders")
	long newOrder() {
		return this.idWorker.nextId("order");
	}

}
