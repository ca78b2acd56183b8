package io.idstarter.sample;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;

import com.jayway.jsonpath.JsonPath;
import io.idstarter.autoconfigure.DeclaredSegmentKeys;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default server keeps its state in an H2 file: stopped and started again on the same file, it issues only IDs
 * above every ID it issued before, and does not create its keys twice.
 */
class FileBackedRestartTests {

	@Test
	void idsDrawnAfterARestartOnTheSameFileAreAboveEveryIdDrawnBefore() {
		Path dataDir = TestDataDirs.create("restart");
		Draw before;
		int workerBefore;
		try (ConfigurableApplicationContext first = start(dataDir)) {
			assertThat(first.getBean(DeclaredSegmentKeys.class).created())
				.containsExactlyInAnyOrder("leaf-segment-test", "order", "user");
			before = draw(first);
			workerBefore = first.getBean(SnowflakeIdGenerator.class).workerId().getAsInt();
		}
		assertThat(dataDir.resolve("id-server.mv.db")).isRegularFile();
		assertThat(dataDir.resolve("worker-id")).exists();
		assertThat(dataDir.resolve("segment-marks")).content().contains("order=");
		try (ConfigurableApplicationContext second = start(dataDir)) {
			assertThat(second.getBean(DeclaredSegmentKeys.class).created()).isEmpty();
			Draw after = draw(second);
			assertThat(Collections.min(after.segment())).isGreaterThan(Collections.max(before.segment()));
			assertThat(Collections.min(after.snowflake())).isGreaterThan(Collections.max(before.snowflake()));
			// The worker ID was given back at shutdown and remembered in the cache file: the same slot again.
			assertThat(second.getBean(SnowflakeIdGenerator.class).workerId()).hasValue(workerBefore);
		}
	}

	private static ConfigurableApplicationContext start(Path dataDir) {
		return new SpringApplicationBuilder(IdServerApplication.class).run("--server.port=0",
				"--id-server.data-dir=" + dataDir);
	}

	/** Draws segment IDs across more than one range (the key's step is 2000) and Snowflake IDs, all distinct. */
	private static Draw draw(ConfigurableApplicationContext context) {
		HttpTestClient http = new HttpTestClient(
				Integer.parseInt(context.getEnvironment().getRequiredProperty("local.server.port")));
		List<Long> segment = new ArrayList<>();
		List<Long> snowflake = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			segment.add(Long.parseLong(http.get("/api/segment/get/order").body()));
			snowflake.add(Long.parseLong(http.get("/api/snowflake/get/order").body()));
		}
		segment.addAll(numbers(http.get("/api/segment/batch/order?count=5000&format=string").body()));
		snowflake.addAll(numbers(http.get("/api/snowflake/batch/order?count=5000&format=string").body()));
		assertThat(new HashSet<>(segment)).hasSameSizeAs(segment);
		assertThat(new HashSet<>(snowflake)).hasSameSizeAs(snowflake);
		return new Draw(segment, snowflake);
	}

	private static List<Long> numbers(String jsonArrayOfStrings) {
		List<String> strings = JsonPath.parse(jsonArrayOfStrings).read("$");
		return strings.stream().map(Long::parseLong).toList();
	}

	private record Draw(List<Long> segment, List<Long> snowflake) {
	}

}
