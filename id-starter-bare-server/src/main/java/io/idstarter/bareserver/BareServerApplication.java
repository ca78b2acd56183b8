package io.idstarter.bareserver;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The limit of the ID server's stack, for {@code scripts/load-test.sh}: one servlet that answers the two ID paths
 * with a constant number, started by Spring Boot on the same embedded Tomcat, with the ID server's
 * {@code application.yml} (so Boot's Tomcat customisation and the same {@code server.*} settings apply), and
 * nothing else: no Spring MVC, no filter, no actuator, no security. What the ID server spends per request beyond
 * this is its own.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class BareServerApplication {

	@Bean
	ServletRegistrationBean<ConstantIdServlet> constantId() {
		return new ServletRegistrationBean<>(new ConstantIdServlet(), "/api/segment/get/*", "/api/snowflake/get/*");
	}

	public static void main(String[] args) {
		SpringApplication.run(BareServerApplication.class, args);
	}

	/**
	 * Answers every GET with the same 18-digit number (a Snowflake ID's length), with the headers of the ID
	 * server's plain answer.
	 */
	static final class ConstantIdServlet extends HttpServlet {

		private static final byte[] BODY = "911886612663631872".getBytes(StandardCharsets.US_ASCII);

		@Override
		protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
			response.setContentType("text/plain;charset=UTF-8");
			response.setContentLength(BODY.length);
			response.getOutputStream().write(BODY);
		}

	}

}
