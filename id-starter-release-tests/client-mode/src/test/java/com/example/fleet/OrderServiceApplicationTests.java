package com.example.fleet;

import java.util.HashSet;
import java.util.Set;

import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest
class OrderServiceApplicationTests {

	@BeforeAll
	static void serversAreNamed() {
		assertThat(System.getProperty("id-worker.http.servers")).as("id-worker.http.servers: run from "
				+ "scripts/release-test.sh, which starts the ID servers and passes -Did-servers").isNotBlank();
	}

	@Autowired
	private SegmentIdGenerator segments;

	@Autowired
	private SnowflakeIdGenerator snowflakes;

	@Test
	void segmentAndSnowflakeIdsFromTheIdServers() {
		Set<Long> ids = new HashSet<>();
		for (int i = 0; i < 1000; i++) {
			assertThat(ids.add(this.segments.nextId("order"))).isTrue();
		}
		Set<Long> snowflakeIds = new HashSet<>();
		for (int i = 0; i < 10_000; i++) {
			assertThat(snowflakeIds.add(this.snowflakes.nextId())).isTrue();
		}
		System.out.printf("release HTTP (client mode, two ID servers): %d segment IDs, %d Snowflake IDs, "
				+ "0 duplicates%n", ids.size(), snowflakeIds.size());
	}

}
