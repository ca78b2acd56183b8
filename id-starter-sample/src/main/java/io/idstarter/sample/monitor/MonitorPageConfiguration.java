package io.idstarter.sample.monitor;

import jakarta.servlet.Filter;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Serves the monitor page (static {@code monitor.html}) at {@code /monitor}, at {@code /} and at Leaf's
 * {@code /cache}, never inside another site's frame; and samples the issue rates every second.
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

	/**
	 * Forbids framing the page (old browsers read {@code X-Frame-Options}, new ones the CSP directive), so that no
	 * other site can overlay it.
	 */
	@Bean
	FilterRegistrationBean<Filter> monitorPageNotFramed() {
		Filter filter = (request, response, chain) -> {
			HttpServletResponse http = (HttpServletResponse) response;
			http.setHeader("X-Frame-Options", "DENY");
			http.setHeader("Content-Security-Policy", "frame-ancestors 'none'");
			chain.doFilter(request, response);
		};
		FilterRegistrationBean<Filter> registration = new FilterRegistrationBean<>(filter);
		registration.addUrlPatterns("/monitor", "/monitor.html");
		return registration;
	}

}
