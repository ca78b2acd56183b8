package io.idstarter.sample.web;

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

	@Bean
	WebServerFactoryCustomizer<TomcatServletWebServerFactory> requestBodyLimits() {
		return (factory) -> factory.addContextValves(new RequestBodyValve());
	}

	@Bean
	FilterRegistrationBean<BodyReadDeadlineFilter> bodyReadDeadline(IdServerProperties properties) {
		FilterRegistrationBean<BodyReadDeadlineFilter> registration = new FilterRegistrationBean<>(
				new BodyReadDeadlineFilter(properties.getBodyReadTimeout().toNanos()));
		// After Spring Security's filters (order -100): anonymous requests are refused before their body is read.
		registration.setOrder(0);
		registration.addUrlPatterns("/api/fleet/*", "/api/admin/*");
		return registration;
	}

}
