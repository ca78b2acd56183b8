package com.example.payments;

import java.util.HashSet;
import java.util.Set;

import io.idstarter.IdWorker;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(properties = "spring.datasource.url=jdbc:h2:mem:payments;DB_CLOSE_DELAY=-1")
class PaymentApplicationTests {

	@Autowired
	private IdWorker idWorker;

	@Test
	void snowflakeIdsWithAWorkerIdLeasedFromTheDatabase() {
		assertThat(this.idWorker).isInstanceOf(SnowflakeIdGenerator.class);
		Set<Long> ids = new HashSet<>();
		for (int i = 0; i < 10_000; i++) {
			assertThat(ids.add(this.idWorker.nextId())).isTrue();
		}
		assertThat(ids).allMatch((id) -> id > 0);
		System.out.printf("release DB (H2 lease): %d IDs, 0 duplicates%n", ids.size());
	}

}
