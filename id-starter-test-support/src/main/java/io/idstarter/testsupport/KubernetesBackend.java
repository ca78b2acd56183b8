package io.idstarter.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import org.jspecify.annotations.Nullable;

/**
 * The Kubernetes API server the tests of the {@code KUBERNETES} lease store run against: a real cluster when
 * {@value #CONTEXT} is set (a context of the default kubeconfig, or the path of a kubeconfig file, whose current
 * context is used), otherwise the fabric8 client's in-JVM API server in CRUD mode, since no API server can run on the
 * CI machines (no Docker, no kube-apiserver package). {@link #inJvm()} tells a test which one it has.
 *
 * <p>The in-JVM server keeps objects, assigns {@code resourceVersion}s and answers 409 to an update that carries a
 * stale one or a create of an existing name, as a real API server does. It does not validate objects, has no RBAC and
 * sends no {@code Date} header; this class adds the header, from a clock a test may move forward
 * ({@link #advanceClock}), as every real API server sends one. It can also refuse one HTTP method with 403, as an API
 * server does for a verb the service account is not granted ({@link #refuse}).
 */
public final class KubernetesBackend implements AutoCloseable {

	/** Environment variable naming a kubeconfig context, or a kubeconfig file, of a real cluster to test against. */
	public static final String CONTEXT = "IDSTARTER_KUBERNETES_CONTEXT";

	/** Environment variable naming the namespace to use on a real cluster ({@code default} if unset). */
	public static final String NAMESPACE = "IDSTARTER_KUBERNETES_NAMESPACE";

	private static @Nullable KubernetesBackend shared;

	private final @Nullable KubernetesMockServer server;

	private final @Nullable TestApiServer dispatcher;

	private final Config config;

	private final String namespace;

	private final String description;

	private KubernetesBackend(@Nullable KubernetesMockServer server, @Nullable TestApiServer dispatcher, Config config,
			String namespace, String description) {
		this.server = server;
		this.dispatcher = dispatcher;
		this.config = config;
		this.namespace = namespace;
		this.description = description;
	}

	/**
	 * Returns the cluster {@value #CONTEXT} names, or else starts an in-JVM API server on a free port.
	 * @return the backend; close it when done
	 */
	public static KubernetesBackend start() {
		return start(0);
	}

	/**
	 * Returns the cluster {@value #CONTEXT} names, or else starts an in-JVM API server on the given port.
	 * @param port the port of the in-JVM server (plain HTTP on 127.0.0.1), 0 for any free one
	 * @return the backend; close it when done
	 */
	public static KubernetesBackend start(int port) {
		String context = System.getenv(CONTEXT);
		if (context != null && !context.isBlank()) {
			return real(context.trim());
		}
		TestApiServer dispatcher = new TestApiServer();
		KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
				dispatcher, false);
		try {
			server.init(InetAddress.getLoopbackAddress(), port);
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("cannot start the in-JVM Kubernetes API server on port " + port + ": " + ex
					+ "; set " + CONTEXT + " to test against a real cluster instead", ex);
		}
		Config config = inJvmConfig("http://127.0.0.1:" + server.getPort() + "/");
		return new KubernetesBackend(server, dispatcher, config, "test",
				"the fabric8 in-JVM API server (CRUD mode) on port " + server.getPort());
	}

	private static KubernetesBackend real(String context) {
		Config config;
		try {
			Path file = Path.of(context);
			config = Files.isRegularFile(file) ? Config.fromKubeconfig(Files.readString(file))
					: Config.autoConfigure(context);
		}
		catch (IOException | RuntimeException ex) {
			throw new IllegalStateException(CONTEXT + "='" + context + "' names neither a context of the default "
					+ "kubeconfig nor a readable kubeconfig file: " + ex, ex);
		}
		String namespace = System.getenv(NAMESPACE);
		if (namespace == null || namespace.isBlank()) {
			namespace = "default";
		}
		config.setNamespace(namespace);
		return new KubernetesBackend(null, null, config, namespace,
				"the cluster of " + CONTEXT + "='" + context + "' at " + config.getMasterUrl());
	}

	/**
	 * Returns the backend of this JVM, started at the first call and stopped when the JVM exits: for drills whose child
	 * processes reach it at {@link #address()}.
	 * @return the shared backend
	 */
	public static synchronized KubernetesBackend shared() {
		if (shared == null) {
			KubernetesBackend backend = start();
			Runtime.getRuntime().addShutdownHook(new Thread(backend::close, "kubernetes-backend-shutdown"));
			shared = backend;
		}
		return shared;
	}

	/**
	 * Returns how another process reaches this API server, for {@link #clientFor(String)}: the in-JVM server's URL, or
	 * {@code context:} and the value of {@value #CONTEXT}.
	 * @return the address
	 */
	public String address() {
		return (this.server != null) ? this.config.getMasterUrl() : "context:" + System.getenv(CONTEXT).trim();
	}

	/**
	 * Returns a client of the API server at an {@link #address()}, in the namespace the tests use.
	 * @param address what {@link #address()} returned, possibly in another process
	 * @return a client; close it when done
	 */
	public static KubernetesClient clientFor(String address) {
		KubernetesBackend backend = address.startsWith("context:") ? real(address.substring("context:".length()))
				: new KubernetesBackend(null, null, inJvmConfig(address), "test", address);
		return backend.newClient();
	}

	private static Config inJvmConfig(String masterUrl) {
		return new ConfigBuilder(Config.empty()).withMasterUrl(masterUrl)
			.withNamespace("test")
			.withRequestRetryBackoffLimit(0)
			.build();
	}

	/**
	 * Returns whether this is the in-JVM API server rather than a real cluster.
	 * @return {@code true} for the in-JVM server
	 */
	public boolean inJvm() {
		return this.server != null;
	}

	/**
	 * Returns a new client of the API server; close it when done.
	 * @return a client
	 */
	public KubernetesClient newClient() {
		return new KubernetesClientBuilder().withConfig(this.config).build();
	}

	/**
	 * Returns the API server's URL.
	 * @return for the in-JVM server, {@code http://127.0.0.1:<port>/}
	 */
	public String masterUrl() {
		return this.config.getMasterUrl();
	}

	/**
	 * Returns the Kubernetes namespace the tests use.
	 * @return {@code test} on the in-JVM server, {@value #NAMESPACE} or {@code default} on a cluster
	 */
	public String namespace() {
		return this.namespace;
	}

	/**
	 * Moves the clock of the in-JVM server's {@code Date} header forward; on a real cluster, waits as long.
	 * @param duration how far
	 * @throws InterruptedException if interrupted while waiting
	 */
	public void advanceClock(Duration duration) throws InterruptedException {
		if (this.dispatcher != null) {
			this.dispatcher.offsetMillis.addAndGet(duration.toMillis());
		}
		else {
			Thread.sleep(duration.toMillis());
		}
	}

	/**
	 * Makes the in-JVM server answer 403 to every request of an HTTP method, or stops doing so.
	 * @param method {@code GET}, {@code POST} or {@code PUT}
	 * @param refused whether to refuse it
	 * @throws IllegalStateException on a real cluster
	 */
	public void refuse(String method, boolean refused) {
		TestApiServer server = requireInJvm("refuse a verb");
		if (refused) {
			server.refused.add(method);
		}
		else {
			server.refused.remove(method);
		}
	}

	/**
	 * Makes the in-JVM server send its answers with or without a {@code Date} header.
	 * @param sent whether to send it (the default)
	 * @throws IllegalStateException on a real cluster
	 */
	public void sendDateHeader(boolean sent) {
		requireInJvm("leave out the Date header").sendDate = sent;
	}

	private TestApiServer requireInJvm(String what) {
		if (this.dispatcher == null) {
			throw new IllegalStateException("only the in-JVM API server can " + what + "; this test needs it");
		}
		return this.dispatcher;
	}

	@Override
	public void close() {
		if (this.server != null) {
			this.server.destroy();
		}
	}

	@Override
	public String toString() {
		return this.description;
	}

	/**
	 * The CRUD dispatcher of the in-JVM server, with a {@code Date} header on every answer and refusals on demand.
	 */
	private static final class TestApiServer extends KubernetesCrudDispatcher {

		/** Added to this JVM's clock for the {@code Date} header; only grows. */
		final AtomicLong offsetMillis = new AtomicLong();

		/** HTTP methods answered with 403. */
		final Set<String> refused = ConcurrentHashMap.newKeySet();

		volatile boolean sendDate = true;

		@Override
		public MockResponse dispatch(RecordedRequest request) {
			MockResponse response;
			if (this.refused.contains(request.getMethod())) {
				response = new MockResponse().setResponseCode(403)
					.setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Forbidden\","
							+ "\"code\":403,\"message\":\"" + request.getMethod() + " refused by the test\"}");
			}
			else {
				response = super.dispatch(request);
			}
			if (this.sendDate) {
				Instant now = Instant.ofEpochMilli(System.currentTimeMillis() + this.offsetMillis.get());
				response.setHeader("Date", DateTimeFormatter.RFC_1123_DATE_TIME.format(now.atZone(ZoneOffset.UTC)));
			}
			return response;
		}

	}

}
