package com.example.shop;

import io.idstarter.IdWorker;

import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.test.context.bean.override.mockito.MockitoBean;

// tag::web-mvc[]
@WebMvcTest(OrderIdController.class)
class OrderIdControllerTests {

	@MockitoBean
	IdWorker idWorker;

}
// end::web-mvc[]
