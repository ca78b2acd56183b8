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
		SpringApplicationBuilder server = new SpringApplicationBuilder(IdServerApplication.class).properties(
				"server.port=0", "id-server.data-dir=" + TestDataDirs.create("no-password"),
				"id-server.admin.enabled=true");
		assertThatThrownBy(server::run).rootCause()
			.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
				assertThat(ex.getName()).isEqualTo("id-server.admin.password");
				assertThat(ex.getMessage())
					.contains("must be set when id-server.admin.enabled is true");
			});
	}

	@Test
	void refusesToStartWithAdminEnabledAndABlankPassword() {
		SpringApplicationBuilder server = new SpringApplicationBuilder(IdServerApplication.class).properties(
				"server.port=0", "id-server.data-dir=" + TestDataDirs.create("blank-password"),
				"id-server.admin.enabled=true", "id-server.admin.password=  ");
		assertThatThrownBy(server::run).rootCause()
			.isInstanceOf(InvalidConfigurationPropertyValueException.class)
			.hasMessageContaining("id-server.admin.password");
	}

}
