package io.idstarter.sample.web.error;

import java.io.IOException;
import java.net.URI;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Makes every error answer an RFC 9457 problem document, also those Spring MVC never sees: Tomcat's own reports
 * ({@link ProblemErrorReportValve}), Spring Security's firewall refusals ({@code ..}, {@code %25}, {@code ;b=c}),
 * errors sent with {@code sendError} (the {@code /error} page, e.g. TRACE refused by Tomcat), and 4xx answers that
 * carry no body (the actuator's 404 for an unknown selector).
 */
@Configuration(proxyBeanMethods = false)
public class ProblemPagesConfiguration {

	@Bean
	WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemErrorReports() {
		return (factory) -> factory.addContextCustomizers((context) -> context.addLifecycleListener((event) -> {
			// The host has added its error report valve by the time its first context starts, and no connector is
			// bound yet.
			if (Lifecycle.BEFORE_START_EVENT.equals(event.getType())
					&& context.getParent() instanceof StandardHost host) {
				host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
				for (Valve valve : host.getPipeline().getValves()) {
					if (valve instanceof ErrorReportValve && !(valve instanceof ProblemErrorReportValve)) {
						host.getPipeline().removeValve(valve);
					}
				}
				host.getPipeline().addValve(new ProblemErrorReportValve());
			}
		}));
	}

	/**
	 * Spring Security's firewall refusals, as 400 problems.
	 */
	@Bean
	RequestRejectedHandler problemRequestRejectedHandler() {
		return (request, response, ex) -> writeProblem(request, response, HttpStatus.BAD_REQUEST, "Request rejected",
				"request-rejected", rejection(ex));
	}

	/**
	 * 4xx answers without a body get one.
	 */
	@Bean
	FilterRegistrationBean<EmptyErrorBodyFilter> emptyErrorBodyFilter() {
		FilterRegistrationBean<EmptyErrorBodyFilter> registration = new FilterRegistrationBean<>(
				new EmptyErrorBodyFilter());
		registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
		return registration;
	}

	private static String rejection(RequestRejectedException ex) {
		String message = String.valueOf(ex.getMessage());
		// The firewall's message quotes the offending part; that is all the client needs.
		return message.startsWith("The request was rejected") ? message
				: "The request was rejected as potentially malicious: " + message;
	}

	/**
	 * Writes a problem answer outside Spring MVC (from a filter or a valve), without flushing it.
	 * @param request the request, whose path becomes the problem's {@code instance} when it is short
	 * @param response the response
	 * @param status the status
	 * @param title the problem's title
	 * @param code the problem's {@code code} member
	 * @param detail the problem's detail
	 * @throws IOException if the body cannot be written
	 */
	public static void writeProblem(HttpServletRequest request, HttpServletResponse response, HttpStatus status,
			String title, String code, String detail) throws IOException {
		response.setStatus(status.value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setCharacterEncoding("UTF-8");
		response.getWriter()
			.write(ProblemJson.of(status.value(), title, code, detail, safePath(request.getRequestURI())));
	}

	static @Nullable String safePath(@Nullable String path) {
		return (path != null && path.length() <= 512) ? path : null;
	}

	/**
	 * The {@code /error} page: errors sent with {@code sendError} (Tomcat's TRACE refusal, a servlet's error) as
	 * problems rather than Spring Boot's own JSON. A client's own {@code GET /error} is a 404, not a 500 that
	 * server-error alerts would count.
	 */
	@RestController
	static class ProblemErrorController implements ErrorController {

		@RequestMapping("${server.error.path:${error.path:/error}}")
		ResponseEntity<ProblemDetail> error(HttpServletRequest request) {
			Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
			// Asked for directly, the page has no error to show: there is no resource at this path for a client.
			int status = (code instanceof Integer value) ? value : 404;
			HttpStatus known = HttpStatus.resolve(status);
			String title = (known != null) ? known.getReasonPhrase() : "Error";
			String detail = switch (status) {
				case 404 -> "No resource at this path";
				case 405 -> "This method is not allowed on this path";
				case 500 -> "The server could not handle the request; its log has the details.";
				default -> title;
			};
			ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.valueOf(status), detail);
			problem.setTitle(title);
			problem.setProperty("code", (status == 500) ? "internal-error" : ProblemJson.code(status, title));
			Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
			String path = safePath((uri instanceof String text) ? text : null);
			if (path != null) {
				try {
					problem.setInstance(URI.create(path));
				}
				catch (IllegalArgumentException ex) {
					// Not a valid URI reference: leave the member out.
				}
			}
			return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(problem);
		}

	}

}
