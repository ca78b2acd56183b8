package io.idstarter.autoconfigure.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.store.jdbc.SegmentSequenceException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * A start that fails in the sequence store ({@code id-worker.segment.store=sequence}) is explained with advice about
 * the key's sequence, not about the table store's tables, with which it shares a core package.
 */
@ExtendWith(OutputCaptureExtension.class)
class SequenceStoreFailureAnalysisTests {

	@Test
	void aSequenceTheDatabaseUserMayNotCreateGetsTheSequencesDdlAsAdvice(CapturedOutput output) throws Exception {
		String url = "jdbc:h2:mem:sequence-rights-" + UUID.randomUUID();
		// The admin's connection keeps the database open; the application's URL sets nothing only an admin may set.
		try (Connection admin = DriverManager.getConnection(url, "sa", "");
				Statement statement = admin.createStatement()) {
			// A user who may read the schema but not create objects in it: CREATE SEQUENCE is refused.
			statement.execute("CREATE USER ids_app PASSWORD 'ids_app'");
			assertThatException().isThrownBy(() -> new SpringApplicationBuilder(SequenceApplication.class)
				.web(WebApplicationType.NONE)
				.properties("spring.datasource.url=" + url, "spring.datasource.username=ids_app",
						"spring.datasource.password=ids_app", "id-worker.segment.store=sequence",
						"id-worker.segment.keys.orders.first-id=1000", "id-worker.segment.keys.orders.step=50")
				.run())
				.withRootCauseInstanceOf(SQLException.class)
				.satisfies((ex) -> assertThat(causes(ex)).hasAtLeastOneElementOfType(SegmentSequenceException.class));
			statement.execute("SHUTDOWN");
		}
		assertThat(output).contains("Action:")
			.contains("Sequence 'id_seq_orders' of key 'orders' cannot be used")
			.contains("CREATE SEQUENCE id_seq_orders INCREMENT BY 50 MINVALUE 1000 START WITH 1049")
			.contains("grant the application's database user")
			.doesNotContain("initialize-schema", "schema-{mysql,postgresql,h2}.sql");
	}

	private static List<Throwable> causes(Throwable ex) {
		List<Throwable> causes = new ArrayList<>();
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			causes.add(cause);
		}
		return causes;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(DataSourceAutoConfiguration.class)
	@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
	static class SequenceApplication {

	}

}
