package io.idstarter.sample.monitor;

import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Serves the monitor page (static {@code monitor.html}) at {@code /monitor}, at {@code /} and at Leaf's
 * {@code /cache}; and samples the issue rates every second.
 */
@Configuration(proxyBeanMethods = false)
@EnableScheduling
public class MonitorPageConfiguration implements WebMvcConfigurer {

	@Override
	public void addViewControllers(ViewControllerRegistry registry) {
		registry.addViewController("/monitor").setViewName("forward:/monitor.html");
		registry.addRedirectViewController("/", "/monitor");
		registry.addRedirectViewController("/cache", "/monitor");
	}

}
