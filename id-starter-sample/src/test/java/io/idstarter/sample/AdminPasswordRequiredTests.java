package io.idstarter.sample;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The server refuses to start with the admin API on and no password.
 */
class AdminPasswordRequiredTests {

	@Test
	void refusesToStartWithAdminEnabledAndNoPassword() {
		assertThatThrownBy(() -> start("--server.port=0", "--id-server.data-dir=" + TestDataDirs.create("no-password"),
				"--id-server.admin.enabled=true")).rootCause()
			.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
				assertThat(ex.getName()).isEqualTo("id-server.admin.password");
				assertThat(ex.getMessage())
					.contains("must be set when id-server.admin.enabled is true");
			});
	}

	@Test
	void refusesToStartWithAdminEnabledAndABlankPassword() {
		assertThatThrownBy(() -> start("--server.port=0", "--id-server.data-dir=" + TestDataDirs.create("blank-password"),
				"--id-server.admin.enabled=true", "--id-server.admin.password=  ")).rootCause()
			.isInstanceOf(InvalidConfigurationPropertyValueException.class)
			.hasMessageContaining("id-server.admin.password");
	}

	private static void start(String... args) {
		// Closed at once should it start, so that a failing test leaves no server behind.
		new SpringApplicationBuilder(IdServerApplication.class).run(args).close();
	}

}
