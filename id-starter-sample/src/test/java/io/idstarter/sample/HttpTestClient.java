package io.idstarter.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;

import com.jayway.jsonpath.DocumentContext;
import com.jayway.jsonpath.JsonPath;
import org.jspecify.annotations.Nullable;

/**
 * A plain HTTP client for the tests: real requests to the server on its random port, no redirects followed, every
 * status returned as it is.
 */
final class HttpTestClient {

	private final HttpClient client = HttpClient.newBuilder()
		.followRedirects(HttpClient.Redirect.NEVER)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final String base;

	HttpTestClient(int port) {
		this.base = "http://127.0.0.1:" + port;
	}

	String base() {
		return this.base;
	}

	HttpResponse<String> get(String path, String... headers) {
		return send("GET", path, null, headers);
	}

	HttpResponse<String> send(String method, String path, @Nullable String jsonBody, String... headers) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(this.base + path))
			.timeout(Duration.ofSeconds(30))
			.method(method, (jsonBody != null) ? HttpRequest.BodyPublishers.ofString(jsonBody)
					: HttpRequest.BodyPublishers.noBody());
		if (jsonBody != null) {
			request.header("Content-Type", "application/json");
		}
		if (headers.length > 0) {
			request.headers(headers);
		}
		try {
			return this.client.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	static String basic(String user, String password) {
		return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
	}

	static DocumentContext json(HttpResponse<String> response) {
		return JsonPath.parse(response.body());
	}

	static String contentType(HttpResponse<String> response) {
		return response.headers().firstValue("Content-Type").orElse("");
	}

}
