package com.example.orders;

import io.idstarter.IdWorker;

import org.springframework.stereotype.Service;

@Service
public class OrderService {

	private final IdWorker idWorker;

	public OrderService(IdWorker idWorker) {
		this.idWorker = idWorker;
	}

	public long newOrderId() {
		return this.idWorker.nextId("order");
	}

}
