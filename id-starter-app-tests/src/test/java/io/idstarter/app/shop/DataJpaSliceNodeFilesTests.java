package io.idstarter.app.shop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.idstarter.IdWorker;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.util.FileSystemUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@code @DataJpaTest} of an application whose configuration sets the node's local files, run again after an
 * earlier run left them behind: the slice's embedded database starts empty, and the slice keeps its marks in memory
 * instead of refusing the new database as a store that lost writes. The files of the earlier run are left as they
 * were.
 */
@DataJpaTest(properties = { "spring.sql.init.schema-locations=classpath:io/idstarter/store/jdbc/schema-h2.sql",
		"spring.sql.init.data-locations=classpath:shop-keys.sql" })
class DataJpaSliceNodeFilesTests {

	private static final String EARLIER_MARKS = "order=900000\n";

	private static final Path STATE = earlierRun();

	@Autowired
	private PurchaseOrderRepository orders;

	@Autowired
	private IdWorker idWorker;

	@DynamicPropertySource
	static void nodeFiles(DynamicPropertyRegistry registry) {
		registry.add("id-worker.segment.marks-file", () -> STATE.resolve("segment-marks").toString());
		registry.add("id-worker.lease.cache-file", () -> STATE.resolve("worker-id").toString());
	}

	@AfterAll
	static void deleteState() throws IOException {
		FileSystemUtils.deleteRecursively(STATE);
	}

	@Test
	void aFreshEmbeddedDatabaseBesideTheMarksOfAnEarlierRunIsServed() throws IOException {
		assertThat(this.orders.save(new PurchaseOrder("book")).getId()).isEqualTo(1000);
		assertThat(this.idWorker.nextId("order")).isEqualTo(1001);
		assertThat(Files.readString(STATE.resolve("segment-marks"), StandardCharsets.UTF_8)).isEqualTo(EARLIER_MARKS);
		assertThat(STATE.resolve("worker-id")).as("no worker-ID cache written by a slice").doesNotExist();
	}

	/** The files an earlier run of the test left: marks far above what a new database hands out. */
	private static Path earlierRun() {
		try {
			Path state = Files.createTempDirectory("slice-state");
			Files.writeString(state.resolve("segment-marks"), EARLIER_MARKS, StandardCharsets.UTF_8);
			return state;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
