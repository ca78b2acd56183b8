package io.idstarter.sample.web;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Puts {@link RequestBodyValve} in front of every request, so that no client holds a request thread by sending a
 * body slowly.
 */
@Configuration(proxyBeanMethods = false)
public class RequestBodyConfiguration {

	@Bean
	WebServerFactoryCustomizer<TomcatServletWebServerFactory> requestBodyLimits() {
		return (factory) -> factory.addContextValves(new RequestBodyValve());
	}

}
