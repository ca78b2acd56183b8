package io.idstarter.sample;

import java.util.Locale;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Refuses to start with {@code server.forward-headers-strategy=framework}: Spring's forwarded-header filter takes
 * {@code X-Forwarded-For} from every client, and the login throttle counts failures per client address, so any client
 * could pick the address it is counted under (dodge its ban, or ban someone else). Tomcat's {@code native} handling
 * trusts the header only from {@code server.tomcat.remoteip.internal-proxies}.
 */
class ForwardedHeadersCheck implements EnvironmentPostProcessor, Ordered {

	static final String STRATEGY = "server.forward-headers-strategy";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		String strategy = environment.getProperty(STRATEGY);
		if (strategy != null && strategy.trim().toLowerCase(Locale.ROOT).equals("framework")) {
			throw new InvalidConfigurationPropertyValueException(STRATEGY, strategy, "takes X-Forwarded-For from "
					+ "every client, which would let a client choose the address failed logins are counted under; "
					+ "use 'native' with server.tomcat.remoteip.internal-proxies set to a regular expression of the "
					+ "proxies' addresses (docs/server.md, Behind a proxy)");
		}
	}

	@Override
	public int getOrder() {
		// After the config data (application.yml, profiles) is read.
		return Ordered.LOWEST_PRECEDENCE;
	}

}
