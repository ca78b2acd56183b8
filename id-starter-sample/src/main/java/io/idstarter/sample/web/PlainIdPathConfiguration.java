package io.idstarter.sample.web;

import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Registers {@link PlainIdFilter}, the lean path of the two single-ID endpoints, ahead of the other filters (the
 * {@code http.server.requests} observation among them), for requests only: error and async dispatches never reach
 * it.
 */
@Configuration(proxyBeanMethods = false)
public class PlainIdPathConfiguration {

	@Bean
	FilterRegistrationBean<PlainIdFilter> plainIdFilter(SegmentIdGenerator segments, SnowflakeIdGenerator snowflake) {
		FilterRegistrationBean<PlainIdFilter> registration = new FilterRegistrationBean<>(
				new PlainIdFilter(segments, snowflake));
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		registration.addUrlPatterns("/api/segment/get/*", "/api/snowflake/get/*");
		return registration;
	}

}
