package io.idstarter.sample;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * {@code server.forward-headers-strategy=framework} (forwarded headers from every client) fails the start, naming the
 * setting to use instead; {@code native} and none start.
 */
class ForwardedHeadersCheckTests {

	@Test
	void theFrameworkStrategyIsRefused() {
		MockEnvironment environment = new MockEnvironment().withProperty("server.forward-headers-strategy",
				"FRAMEWORK");
		assertThatExceptionOfType(InvalidConfigurationPropertyValueException.class)
			.isThrownBy(() -> new ForwardedHeadersCheck().postProcessEnvironment(environment, new SpringApplication()))
			.withMessageContaining("server.forward-headers-strategy")
			.withMessageContaining("server.tomcat.remoteip.internal-proxies");
	}

	@Test
	void nativeAndNoneStart() {
		for (String strategy : new String[] { "native", "none" }) {
			MockEnvironment environment = new MockEnvironment().withProperty("server.forward-headers-strategy",
					strategy);
			assertThatNoException().isThrownBy(
					() -> new ForwardedHeadersCheck().postProcessEnvironment(environment, new SpringApplication()));
		}
		assertThatNoException().isThrownBy(() -> new ForwardedHeadersCheck()
			.postProcessEnvironment(new MockEnvironment(), new SpringApplication()));
	}

}
