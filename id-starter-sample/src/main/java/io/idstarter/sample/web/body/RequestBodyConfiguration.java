package io.idstarter.sample.web.body;

import io.idstarter.sample.IdServerProperties;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Puts {@link RequestBodyValve} in front of every request, and {@link BodyReadDeadlineFilter} behind the security
 * filters of the APIs that take a body, so that no client holds a request thread by sending a body slowly.
 */
@Configuration(proxyBeanMethods = false)
public class RequestBodyConfiguration {

	/**
	 * The valve, and Tomcat's upload timeout: while a body is read, one read waits at most the body deadline (not the
	 * 20 s connection timeout), so that {@link BodyReadDeadlineFilter} sees the deadline pass also when nothing
	 * arrives.
	 */
	@Bean
	WebServerFactoryCustomizer<TomcatServletWebServerFactory> requestBodyLimits(IdServerProperties properties) {
		long uploadTimeoutMillis = Math.max(1, properties.getBodyReadTimeout().toMillis());
		return (factory) -> {
			factory.addContextValves(new RequestBodyValve(properties.getAdmin().isEnabled()));
			factory.addConnectorCustomizers((connector) -> {
				connector.setProperty("disableUploadTimeout", "false");
				connector.setProperty("connectionUploadTimeout", Long.toString(uploadTimeoutMillis));
			});
		};
	}

	@Bean
	FilterRegistrationBean<BodyReadDeadlineFilter> bodyReadDeadline(IdServerProperties properties) {
		FilterRegistrationBean<BodyReadDeadlineFilter> registration = new FilterRegistrationBean<>(
				new BodyReadDeadlineFilter(properties.getBodyReadTimeout().toNanos()));
		// After Spring Security's filters (order -100): anonymous requests are refused before their body is read.
		registration.setOrder(0);
		registration.addUrlPatterns("/api/fleet/*");
		if (properties.getAdmin().isEnabled()) {
			registration.addUrlPatterns("/api/admin/*");
		}
		return registration;
	}

}
