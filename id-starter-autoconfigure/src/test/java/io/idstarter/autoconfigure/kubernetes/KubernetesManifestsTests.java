package io.idstarter.autoconfigure.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import io.idstarter.store.kubernetes.StatefulSetOrdinal;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.json.JsonParserFactory;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The manifests under {@code deploy/kubernetes} (shown by docs/kubernetes.md), parsed: every {@code IDWORKER_*}
 * variable names an {@code id-worker.*} property that exists, the variable the StatefulSet fills from the pod-index
 * label is the one the configuration reads, the worker-ID files sit on a volume, the grace period covers the shutdown,
 * readiness follows the {@code idWorker} health, the Role grants what the store calls, and the PodDisruptionBudget
 * keeps an ID server up. A renamed property or a changed store fails here before a user's cluster does.
 */
class KubernetesManifestsTests {

	private static final Path DEPLOY = Path.of("..", "deploy", "kubernetes");

	/** How long the lease keeper's close may take to give the worker ID back. */
	private static final Duration KEEPER_CLOSE = Duration.ofSeconds(10);

	@Test
	void everyIdWorkerVariableNamesAnExistingProperty() throws IOException {
		Set<String> keys = idWorkerKeys();
		List<String> variables = new ArrayList<>();
		for (Map<String, Object> container : containers()) {
			for (String name : env(container).keySet()) {
				if (name.startsWith("IDWORKER_")) {
					variables.add(name);
				}
			}
		}
		assertThat(variables).isNotEmpty()
			.allSatisfy((variable) -> assertThat(keys).as("the id-worker.* key %s binds to", variable)
				.anyMatch((key) -> relaxed(key).equals(variable)));
		assertThat(variables).contains("IDWORKER_LEASE_CACHEFILE", "IDWORKER_LEASE_NAMESPACE",
				"IDWORKER_KUBERNETES_PREFERPODORDINAL");
	}

	@Test
	void theStatefulSetPassesItsPodIndexLabelInTheVariableTheConfigurationReads() throws IOException {
		Map<String, Object> container = containers("application-statefulset.yaml").get(0);
		Map<String, Object> podIndex = env(container).get(KubernetesLeaseStoreConfiguration.POD_INDEX);
		assertThat(podIndex).as("env " + KubernetesLeaseStoreConfiguration.POD_INDEX).isNotNull();
		assertThat(podIndex.toString())
			.contains("fieldPath=metadata.labels['" + StatefulSetOrdinal.POD_INDEX_LABEL + "']");
	}

	@Test
	void theWorkerIdFilesLieOnAVolumeOfTheContainer() throws IOException {
		for (String file : List.of("application-statefulset.yaml", "application-deployment.yaml")) {
			Map<String, Object> container = containers(file).get(0);
			String cacheFile = value(container, "IDWORKER_LEASE_CACHEFILE");
			assertThat(mountPaths(container)).as(file).anyMatch((path) -> cacheFile.startsWith(path + "/"));
		}
		Map<String, Object> server = containers("id-server.yaml").get(0);
		assertThat(mountPaths(server)).contains(value(server, "IDSERVER_DATADIR"));
		assertThat(Files.readString(Path.of("..", "id-starter-sample", "src", "main", "resources", "application.yml")))
			.as("the ID server's data directory property").contains("id-server:\n  data-dir:");
	}

	@Test
	void theGracePeriodCoversPreStopTheDrainAndTheWorkerIdsRelease() throws IOException {
		for (String file : List.of("application-statefulset.yaml", "application-deployment.yaml", "id-server.yaml")) {
			Map<String, Object> pod = podSpec(document(file, "StatefulSet", "Deployment"));
			Map<String, Object> container = containers(file).get(0);
			long preStop = ((Number) at(container, "lifecycle", "preStop", "sleep", "seconds")).longValue();
			Duration drain = DurationStyle.detectAndParse(value(container, "SPRING_LIFECYCLE_TIMEOUTPERSHUTDOWNPHASE"));
			long grace = ((Number) pod.get("terminationGracePeriodSeconds")).longValue();
			assertThat(grace).as(file).isGreaterThan(preStop + drain.toSeconds() + KEEPER_CLOSE.toSeconds());
		}
	}

	@Test
	void readinessFollowsTheIdWorkerHealthAndLivenessDoesNot() throws IOException {
		for (Map<String, Object> container : containers()) {
			assertThat(value(container, "MANAGEMENT_ENDPOINT_HEALTH_GROUP_READINESS_INCLUDE").split(","))
				.contains("idWorker");
			assertThat(value(container, "MANAGEMENT_ENDPOINT_HEALTH_PROBES_ENABLED")).isEqualTo("true");
			assertThat(at(container, "readinessProbe", "httpGet", "path")).isEqualTo("/actuator/health/readiness");
			assertThat(at(container, "livenessProbe", "httpGet", "path")).isEqualTo("/actuator/health/liveness");
		}
	}

	@Test
	void theRoleGrantsExactlyTheVerbsTheStoreUsesToTheApplicationsServiceAccount() throws IOException {
		Map<String, Object> role = document("rbac.yaml", "Role");
		List<Map<String, Object>> rules = KubernetesManifestsTests.<Map<String, Object>>list(role.get("rules"));
		assertThat(rules).hasSize(1);
		assertThat(list(rules.get(0).get("apiGroups"))).containsExactly("coordination.k8s.io");
		assertThat(list(rules.get(0).get("resources"))).containsExactly("leases");
		assertThat(list(rules.get(0).get("verbs"))).containsExactlyInAnyOrder("get", "list", "create", "update");
		Map<String, Object> binding = document("rbac.yaml", "RoleBinding");
		assertThat(at(binding, "roleRef", "name")).isEqualTo(at(role, "metadata", "name"));
		Map<String, Object> subject = KubernetesManifestsTests.<Map<String, Object>>list(binding.get("subjects")).get(0);
		for (String file : List.of("application-statefulset.yaml", "application-deployment.yaml")) {
			Map<String, Object> workload = document(file, "StatefulSet", "Deployment");
			assertThat(podSpec(workload).get("serviceAccountName")).as(file).isEqualTo(subject.get("name"));
			assertThat(at(workload, "metadata", "namespace")).as(file).isEqualTo(at(role, "metadata", "namespace"));
		}
		assertThat(Files.readString(Path.of("..", "docs", "kubernetes.md"))).as("the Role shown in the docs")
			.contains(roleText());
	}

	@Test
	void theIdServersDisruptionBudgetKeepsAServerUpAndSelectsItsPods() throws IOException {
		Map<String, Object> server = document("id-server.yaml", "Deployment");
		Map<String, Object> budget = document("id-server.yaml", "PodDisruptionBudget");
		int replicas = ((Number) at(server, "spec", "replicas")).intValue();
		int minAvailable = ((Number) at(budget, "spec", "minAvailable")).intValue();
		assertThat(minAvailable).isPositive().isLessThan(replicas);
		assertThat(at(budget, "spec", "selector", "matchLabels"))
			.isEqualTo(at(server, "spec", "template", "metadata", "labels"));
	}

	/** The Role document of rbac.yaml as text, from its {@code apiVersion} line to the end of its rules. */
	private static String roleText() throws IOException {
		String rbac = Files.readString(DEPLOY.resolve("rbac.yaml"));
		for (String document : rbac.split("\n---\n")) {
			if (document.contains("kind: Role\n")) {
				return document.strip();
			}
		}
		throw new IllegalStateException("no Role in rbac.yaml");
	}

	/** How Spring Boot's relaxed binding names a property as an environment variable. */
	private static String relaxed(String key) {
		return key.replace("-", "").replace('.', '_').toUpperCase(Locale.ROOT);
	}

	@SuppressWarnings("unchecked")
	private static Set<String> idWorkerKeys() throws IOException {
		Set<String> keys = new HashSet<>();
		try (InputStream in = KubernetesManifestsTests.class.getClassLoader()
			.getResourceAsStream("META-INF/spring-configuration-metadata.json")) {
			assertThat(in).as("the generated configuration metadata").isNotNull();
			Map<String, Object> metadata = JsonParserFactory.getJsonParser()
				.parseMap(new String(in.readAllBytes(), StandardCharsets.UTF_8));
			for (Object property : (List<Object>) metadata.get("properties")) {
				keys.add((String) ((Map<String, Object>) property).get("name"));
			}
		}
		return keys;
	}

	private static List<Map<String, Object>> documents() throws IOException {
		List<Map<String, Object>> documents = new ArrayList<>();
		try (Stream<Path> files = Files.list(DEPLOY)) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".yaml")).sorted().toList()) {
				documents.addAll(documents(file.getFileName().toString()));
			}
		}
		return documents;
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> documents(String file) throws IOException {
		List<Map<String, Object>> documents = new ArrayList<>();
		try (Reader reader = Files.newBufferedReader(DEPLOY.resolve(file))) {
			for (Object document : new Yaml().loadAll(reader)) {
				documents.add((Map<String, Object>) document);
			}
		}
		return documents;
	}

	private static Map<String, Object> document(String file, String... kinds) throws IOException {
		return documents(file).stream()
			.filter((document) -> List.of(kinds).contains(document.get("kind")))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no " + String.join(" or ", kinds) + " in " + file));
	}

	private static Map<String, Object> podSpec(Map<String, Object> workload) {
		return map(at(workload, "spec", "template", "spec"));
	}

	private static List<Map<String, Object>> containers() throws IOException {
		List<Map<String, Object>> containers = new ArrayList<>();
		for (Map<String, Object> document : documents()) {
			if (List.of("StatefulSet", "Deployment").contains(document.get("kind"))) {
				containers.addAll(list(podSpec(document).get("containers")));
			}
		}
		return containers;
	}

	private static List<Map<String, Object>> containers(String file) throws IOException {
		return list(podSpec(document(file, "StatefulSet", "Deployment")).get("containers"));
	}

	private static Map<String, Map<String, Object>> env(Map<String, Object> container) {
		Map<String, Map<String, Object>> env = new java.util.LinkedHashMap<>();
		for (Map<String, Object> variable : KubernetesManifestsTests.<Map<String, Object>>list(container.get("env"))) {
			env.put((String) variable.get("name"), variable);
		}
		return env;
	}

	private static String value(Map<String, Object> container, String variable) {
		Map<String, Object> entry = env(container).get(variable);
		assertThat(entry).as("env " + variable).isNotNull();
		return String.valueOf(entry.get("value"));
	}

	private static List<String> mountPaths(Map<String, Object> container) {
		return KubernetesManifestsTests.<Map<String, Object>>list(container.get("volumeMounts"))
			.stream()
			.map((mount) -> (String) mount.get("mountPath"))
			.toList();
	}

	private static Object at(Map<String, Object> map, String... path) {
		Object current = map;
		for (String key : path) {
			assertThat(current).as(String.join(".", path)).isInstanceOf(Map.class);
			current = map(current).get(key);
		}
		return current;
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> map(Object value) {
		return (Map<String, Object>) value;
	}

	@SuppressWarnings("unchecked")
	private static <T> List<T> list(Object value) {
		return (value != null) ? (List<T>) value : List.of();
	}

}
