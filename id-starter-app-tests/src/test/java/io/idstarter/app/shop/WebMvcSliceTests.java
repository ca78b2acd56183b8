package io.idstarter.app.shop;

import io.idstarter.IdWorker;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/**
 * A {@code @WebMvcTest} of an application with {@code @EnableIdWorker} on its main class starts without the
 * generators or their store (no {@code DataSource} in this slice), and takes the mocked {@code IdWorker}.
 */
@WebMvcTest(OrderIdController.class)
class WebMvcSliceTests {

	@Autowired
	private MockMvc mvc;

	@Autowired
	private ApplicationContext context;

	@MockitoBean
	private IdWorker idWorker;

	@Test
	void controllerGetsTheMockedIdWorker() throws Exception {
		given(this.idWorker.nextId("order")).willReturn(42L);
		this.mvc.perform(get("/order-ids/next")).andExpect(status().isOk()).andExpect(content().string("42"));
		assertThat(this.context.getBeanNamesForType(IdWorker.class)).hasSize(1);
		assertThat(this.context.containsBean("segmentIdWorker")).isFalse();
	}

}
