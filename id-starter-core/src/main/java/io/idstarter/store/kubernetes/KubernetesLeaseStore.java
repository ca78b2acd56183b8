package io.idstarter.store.kubernetes;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseList;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseLostException;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.lease.LeaseStoreCall;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.lease.SlotMark;
import io.idstarter.lease.SlotOrder;
import io.idstarter.lease.WorkerLease;
import io.idstarter.snowflake.RecordedLayout;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An {@link ISequenceManager} on the Kubernetes API: one {@code coordination.k8s.io/v1} {@code Lease} object per
 * worker-ID slot, in one Kubernetes namespace (the pod's own), named {@code <prefix>-<namespace>-<workerId>}. Every
 * borrow, renewal and release is one compare-and-set: an update that carries the {@code metadata.resourceVersion} it
 * read, or a create; the API server answers 409 to the loser, who reads again.
 *
 * <p>A slot's object, as {@code kubectl get lease -o yaml} shows it:
 * <pre>
 * metadata:
 *   name: id-worker-orders-5
 *   labels: { app.kubernetes.io/managed-by: id-starter }
 *   annotations:
 *     id-starter.io/namespace: orders              # the lease namespace, exactly
 *     id-starter.io/max-timestamp: "1763709262000" # the slot's high-water mark, ms since the epoch
 *     id-starter.io/instance: orders-7f9c-x2k4z/1  # who holds or held it, for operators
 * spec:
 *   holderIdentity: 6f1c...                        # the owner token; absent when the slot is free
 *   leaseDurationSeconds: 30                       # the TTL, rounded up to whole seconds
 *   renewTime: "2026-11-26T18:09:35.000000Z"       # by the API server's clock, see below
 * </pre>
 * A lease namespace's recorded layout ({@link #recordLayout}) is one more {@code Lease} object,
 * {@code <prefix>-<namespace>-layout}, with the layout in the annotation {@value #LAYOUT_ANNOTATION}, the lease
 * namespace in {@value #NAMESPACE_ANNOTATION} and no holder: its name ends in no worker ID, so no borrow, count or
 * listing of slots reads it. It is created once (a create fails with 409 if it exists) and replaced only by an update
 * that carries the {@code resourceVersion} it read; the same verbs as the slots'.
 * Objects are never deleted: the high-water mark has to outlive every lease of the slot. Deleting one by hand forgets
 * its mark (the nodes' own slot-marks files still guard what they issued).
 *
 * <p><b>Whose clock.</b> Expiry is judged by the API server's clock, read from the {@code Date} header of its
 * answers (every Go HTTP server sends one; RFC 9110 requires it of a server with a clock). The header names whole
 * seconds, so each reading {@code D} says the server's time was in {@code [D, D + 1 s)} when it answered. A holder
 * writes {@code renewTime = D + 1 s} from the first answer after its keeper read its own clock, an upper bound of the
 * server's time at that moment; another node judges the slot expired only when a reading {@code D'}, a lower bound,
 * is at or past {@code renewTime + leaseDurationSeconds}. So the slot passes to another node no earlier, by the API
 * server's clock, than a full TTL after the keeper started the call that renewed it, and the keeper stops issuing its
 * safety margin before that. Pod clocks take no part; what remains is the spread between the clocks of the API
 * server's replicas (each answer may come from another one), which must stay below the safety margin (NTP keeps it
 * to milliseconds), and the 1-second rounding, which costs up to 2 s of availability after a crash, never safety.
 * An answer without a {@code Date} header fails the call: the store never falls back to the pod's clock.
 *
 * <p><b>Slot order.</b> That of {@link ISequenceManager}, with one addition: after the request's preferred slot, a
 * StatefulSet's pod prefers its ordinal ({@link StatefulSetOrdinal}), if free. Two pods claiming one ordinal (a
 * forced reschedule) still get two worker IDs: only one of their compare-and-sets succeeds.
 *
 * <p><b>Objects edited by someone else.</b> An object under this store's names whose mark is missing or not a number,
 * or whose holder has no {@code renewTime} or {@code leaseDurationSeconds}, is never lent: its mark or its expiry
 * cannot be known. A borrow that finds nothing else free says which objects are in the way and why.
 *
 * <p>The calls need the verbs {@code get}, {@code list}, {@code create} and {@code update} on {@code leases} in the
 * namespace; a refusal is a {@link KubernetesAccessDeniedException} naming the verb, a server that does not answer
 * a {@link KubernetesApiUnreachableException}.
 */
public class KubernetesLeaseStore implements ISequenceManager {

	/** Name prefix used when none is given. */
	public static final String DEFAULT_NAME_PREFIX = "id-worker";

	/** How long one call to the API server may take when no timeout is given. */
	public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(5);

	/** Annotation holding the slot's high-water mark, milliseconds since the Unix epoch ({@code -1}: none). */
	public static final String MARK_ANNOTATION = "id-starter.io/max-timestamp";

	/** Annotation holding the lease namespace the object belongs to, exactly as configured. */
	public static final String NAMESPACE_ANNOTATION = "id-starter.io/namespace";

	/** Annotation naming the instance that holds or last held the slot. */
	public static final String INSTANCE_ANNOTATION = "id-starter.io/instance";

	/** Annotation holding a lease namespace's recorded layout, on its {@code <prefix>-<namespace>-layout} object. */
	public static final String LAYOUT_ANNOTATION = "id-starter.io/layout";

	/** Last part of the name of a lease namespace's layout object, after {@link #namePrefix(String)}. */
	private static final String LAYOUT_NAME = "layout";

	/** Label on every object of this store, for {@code kubectl get lease -l}. */
	public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";

	private static final String MANAGED_BY = "id-starter";

	private static final Logger logger = LoggerFactory.getLogger(KubernetesLeaseStore.class);

	/** A DNS-1123 label: what a name prefix and a lease namespace used as is must be. */
	private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

	private static final int MAX_LABEL_LENGTH = 63;

	/** How many lost compare-and-sets in a row a call accepts before it gives up. */
	private static final int MAX_ATTEMPTS = 32;

	/** The {@code Date} header's resolution: a reading D means the server's time was in [D, D + this). */
	private static final long DATE_RESOLUTION_MILLIS = 1000;

	private static final String JSON = "application/json";

	private final KubernetesClient client;

	private final String kubernetesNamespace;

	private final String namePrefix;

	private final int podOrdinal;

	private final Duration callTimeout;

	/**
	 * Creates a store in the client's namespace, with the default prefix and no pod ordinal.
	 * @param client the Kubernetes client
	 */
	public KubernetesLeaseStore(KubernetesClient client) {
		this(client, Objects.requireNonNullElse(client.getNamespace(), "default"), DEFAULT_NAME_PREFIX, -1,
				DEFAULT_CALL_TIMEOUT);
	}

	/**
	 * Creates a store.
	 * @param client the Kubernetes client
	 * @param kubernetesNamespace the Kubernetes namespace holding the {@code Lease} objects (the pod's own)
	 * @param namePrefix the first part of every object's name, a DNS-1123 label of at most 40 characters
	 * @param podOrdinal the StatefulSet ordinal this pod prefers after the request's preferred slot, or {@code -1}
	 * @param callTimeout how long one call to the API server may take
	 */
	public KubernetesLeaseStore(KubernetesClient client, String kubernetesNamespace, String namePrefix, int podOrdinal,
			Duration callTimeout) {
		this.client = Objects.requireNonNull(client, "client");
		this.kubernetesNamespace = requireNamespace(kubernetesNamespace);
		this.namePrefix = requireNamePrefix(namePrefix);
		if (podOrdinal < -1) {
			throw new IllegalArgumentException("podOrdinal must be -1 (none) or a worker ID: " + podOrdinal);
		}
		this.podOrdinal = podOrdinal;
		this.callTimeout = Objects.requireNonNull(callTimeout, "callTimeout");
		if (callTimeout.isNegative() || callTimeout.isZero()) {
			throw new IllegalArgumentException("callTimeout must be positive: " + callTimeout);
		}
	}

	/**
	 * Checks a Kubernetes namespace name.
	 * @param namespace the name
	 * @return the name
	 * @throws IllegalArgumentException if it is not a DNS-1123 label
	 */
	public static String requireNamespace(String namespace) {
		Objects.requireNonNull(namespace, "kubernetesNamespace");
		if (namespace.length() > MAX_LABEL_LENGTH || !DNS_LABEL.matcher(namespace).matches()) {
			throw new IllegalArgumentException("Kubernetes namespace '" + namespace + "' is not a valid namespace "
					+ "name: use 1 to 63 lower-case letters, digits and '-', starting and ending with a letter or digit");
		}
		return namespace;
	}

	/**
	 * Checks a name prefix.
	 * @param prefix the prefix
	 * @return the prefix
	 * @throws IllegalArgumentException if it is not a DNS-1123 label of at most 40 characters
	 */
	public static String requireNamePrefix(String prefix) {
		Objects.requireNonNull(prefix, "namePrefix");
		if (prefix.length() > 40 || !DNS_LABEL.matcher(prefix).matches()) {
			throw new IllegalArgumentException("Lease name prefix '" + prefix + "' is not valid: use 1 to 40 "
					+ "lower-case letters, digits and '-', starting and ending with a letter or digit, such as '"
					+ DEFAULT_NAME_PREFIX + "'");
		}
		return prefix;
	}

	@Override
	public String identity() {
		// The API server's address is left out: it changes with a load balancer or a kubeconfig, the objects do not.
		return "Kubernetes lease store, namespace " + this.kubernetesNamespace + ", name prefix " + this.namePrefix;
	}

	@Override
	public WorkerLease borrow(LeaseRequest request) {
		Objects.requireNonNull(request, "request");
		String action = "borrow a worker ID of namespace '" + request.namespace() + "'";
		String store = store(request.namespace());
		return LeaseStoreCall.run(action, store, () -> LeaseStoreCall.untilTaken(action, store, MAX_ATTEMPTS, () -> {
			Listing listing = list(request.namespace(), action);
			SlotOrder.Candidate<Slot> candidate = SlotOrder
				.first(SlotOrder.candidates(request, preferred(request, listing), listing.used()));
			if (candidate == null) {
				throw noneFree(request, listing);
			}
			Slot slot = (candidate.used() != null) ? candidate.used().read() : Slot.absent(candidate.workerId());
			return take(request, slot, listing.date(), action);
		}), (ex) -> new LeaseStoreException("could not " + action + " on " + store + ": " + ex, ex));
	}

	/**
	 * Returns the slot to try first: the request's preferred slot if it may be taken, else this pod's ordinal.
	 */
	private int preferred(LeaseRequest request, Listing listing) {
		int preferred = request.preferredWorkerId();
		if (preferred >= 0 && request.allows(preferred)) {
			Slot slot = listing.slots().get(preferred);
			if (slot == null || (slot.problem() == null && slot.isFree(listing.date()))) {
				return preferred;
			}
		}
		return this.podOrdinal;
	}

	/**
	 * Returns the refusal of a borrow that found no slot to take: the shared one, unless objects edited outside
	 * id-starter are in the way, which it names.
	 */
	private RuntimeException noneFree(LeaseRequest request, Listing listing) {
		List<String> unreadable = new ArrayList<>();
		for (Slot slot : listing.slots().values()) {
			if (slot.problem() != null && slot.workerId() <= request.maxWorkerId() && request.allows(slot.workerId())) {
				unreadable.add("Lease " + slot.name() + " " + slot.problem());
			}
		}
		if (unreadable.isEmpty()) {
			return NoFreeWorkerIdException.allHeld(request, store(request.namespace()));
		}
		return new LeaseStoreException("no free worker ID in namespace '" + request.namespace() + "' ("
				+ store(request.namespace()) + "), and some Lease objects were edited outside id-starter so that they "
				+ "cannot be lent safely: " + String.join("; ", unreadable) + ". Repair them (the mark annotation "
				+ MARK_ANNOTATION + " must be at least the last timestamp issued under the slot), or delete one whose "
				+ "worker ID no pod uses any more");
	}

	/**
	 * Names where a lease namespace's slots are, for messages.
	 */
	private String store(String namespace) {
		return "Kubernetes Lease objects " + namePrefix(namespace) + "* in namespace '" + this.kubernetesNamespace
				+ "'";
	}

	/**
	 * Takes a slot with one create or one conditional update.
	 * @param serverDate the API server's {@code Date} when the slots were read, after the keeper read its clock
	 * @return the lease, or {@code null} if another pod changed the slot first
	 */
	private @Nullable WorkerLease take(LeaseRequest request, Slot slot, long serverDate, String action) {
		String token = UUID.randomUUID().toString();
		long floor = slot.exists() ? slot.mark() : -1;
		long mark = Math.max(floor, request.timestampCeiling());
		Lease lease = (slot.lease() != null) ? slot.lease() : new Lease();
		ObjectMeta metadata = (lease.getMetadata() != null) ? lease.getMetadata() : new ObjectMeta();
		metadata.setName(name(request.namespace(), slot.workerId()));
		metadata.setNamespace(this.kubernetesNamespace);
		metadata.setLabels(with(metadata.getLabels(), MANAGED_BY_LABEL, MANAGED_BY));
		Map<String, String> annotations = with(metadata.getAnnotations(), NAMESPACE_ANNOTATION, request.namespace());
		annotations.put(MARK_ANNOTATION, Long.toString(mark));
		annotations.put(INSTANCE_ANNOTATION, request.instance());
		metadata.setAnnotations(annotations);
		lease.setMetadata(metadata);
		LeaseSpec spec = (lease.getSpec() != null) ? lease.getSpec() : new LeaseSpec();
		ZonedDateTime renewTime = time(serverDate + DATE_RESOLUTION_MILLIS);
		spec.setHolderIdentity(token);
		spec.setLeaseDurationSeconds(durationSeconds(request.ttl()));
		spec.setAcquireTime(renewTime);
		spec.setRenewTime(renewTime);
		spec.setLeaseTransitions((spec.getLeaseTransitions() != null) ? spec.getLeaseTransitions() + 1 : 0);
		lease.setSpec(spec);
		Answer answer = slot.exists() ? send("update", lease, action) : send("create", lease, action);
		if (answer.code() == 409) {
			return null;
		}
		logger.debug("Borrowed worker ID {} of namespace '{}' for {} (floor {})", slot.workerId(),
				request.namespace(), request.instance(), floor);
		return new WorkerLease(request.namespace(), slot.workerId(), token, request.ttl(), floor, mark,
				answer.storeTimeMillis());
	}

	@Override
	public WorkerLease renew(WorkerLease lease, long timestampCeiling) {
		Objects.requireNonNull(lease, "lease");
		String action = "renew worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'";
		for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
			Read read = get(lease, action);
			Slot slot = read.slot();
			if (slot == null) {
				throw LeaseLostException.notHeld(lease, store(lease.namespace()), "its Lease object was deleted");
			}
			if (!lease.ownerToken().equals(slot.holder())) {
				throw LeaseLostException.notHeld(lease, store(lease.namespace()), (slot.holder() == null)
						? "it was released" : "its lease expired and instance '" + slot.instance() + "' holds it now");
			}
			if (slot.mark() == Long.MIN_VALUE) {
				throw new LeaseStoreException("cannot " + action + ": Lease " + slot.name() + " " + slot.problem()
						+ "; repair the annotation (at least " + lease.timestampCeiling() + ") before the lease ends");
			}
			long mark = Math.max(slot.mark(), timestampCeiling);
			Lease updated = Objects.requireNonNull(slot.lease());
			updated.getMetadata().getAnnotations().put(MARK_ANNOTATION, Long.toString(mark));
			updated.getMetadata().getAnnotations().put(NAMESPACE_ANNOTATION, lease.namespace());
			updated.getSpec().setRenewTime(time(read.date() + DATE_RESOLUTION_MILLIS));
			updated.getSpec().setLeaseDurationSeconds(durationSeconds(lease.ttl()));
			Answer answer = send("update", updated, action);
			if (answer.code() != 409) {
				return new WorkerLease(lease.namespace(), lease.workerId(), lease.ownerToken(), lease.ttl(),
						lease.timestampFloor(), mark, answer.storeTimeMillis());
			}
		}
		throw new LeaseStoreException("could not " + action + ": the Lease object changed " + MAX_ATTEMPTS
				+ " times in a row while it was being renewed; find what else writes " + name(lease.namespace(),
						lease.workerId()));
	}

	@Override
	public void release(WorkerLease lease, long lastIssuedTimestamp) {
		Objects.requireNonNull(lease, "lease");
		String action = "release worker ID " + lease.workerId() + " of namespace '" + lease.namespace() + "'";
		for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
			Read read = get(lease, action);
			Slot slot = read.slot();
			if (slot == null || !lease.ownerToken().equals(slot.holder())) {
				logger.debug("Worker ID {} of namespace '{}' was no longer held by this lease; nothing to release",
						lease.workerId(), lease.namespace());
				return;
			}
			long reported = lease.releaseMark(lastIssuedTimestamp);
			long mark = (reported >= 0) ? reported
					: (slot.mark() != Long.MIN_VALUE) ? slot.mark() : lease.timestampCeiling();
			Lease updated = Objects.requireNonNull(slot.lease());
			updated.getMetadata().getAnnotations().put(MARK_ANNOTATION, Long.toString(mark));
			updated.getSpec().setHolderIdentity(null);
			// Free since this reading (a lower bound of the server's time): it only orders the free slots.
			updated.getSpec().setRenewTime(time(read.date()));
			if (send("update", updated, action).code() != 409) {
				return;
			}
		}
		logger.warn("Could not release worker ID {} of namespace '{}': its Lease object kept changing; it frees "
				+ "itself when its lease ends", lease.workerId(), lease.namespace());
	}

	/**
	 * {@inheritDoc}
	 * <p>Creates the namespace's layout object; if it exists (409), reads its annotation.
	 */
	@Override
	public String recordLayout(String namespace, String layout) {
		RecordedLayout.requireStorable("layout", layout);
		String action = "record the layout of namespace '" + namespace + "'";
		String name = namePrefix(namespace) + LAYOUT_NAME;
		for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
			Lease lease = new Lease();
			ObjectMeta metadata = new ObjectMeta();
			metadata.setName(name);
			metadata.setNamespace(this.kubernetesNamespace);
			metadata.setLabels(with(null, MANAGED_BY_LABEL, MANAGED_BY));
			Map<String, String> annotations = with(null, NAMESPACE_ANNOTATION, namespace);
			annotations.put(LAYOUT_ANNOTATION, layout);
			metadata.setAnnotations(annotations);
			lease.setMetadata(metadata);
			lease.setSpec(new LeaseSpec());
			if (send("create", lease, action).code() != 409) {
				return layout;
			}
			Lease recorded = getLayout(name, action);
			if (recorded != null) {
				return recordedLayout(recorded, namespace);
			}
			// deleted between the create and the read: create it again
		}
		throw new LeaseStoreException("could not " + action + ": Lease " + name + " kept disappearing; find what "
				+ "else deletes it");
	}

	/**
	 * {@inheritDoc}
	 * <p>One {@code get} of the layout object.
	 */
	@Override
	public @Nullable String readLayout(String namespace) {
		String action = "read the layout of namespace '" + namespace + "'";
		Lease recorded = getLayout(namePrefix(namespace) + LAYOUT_NAME, action);
		return (recorded != null) ? recordedLayout(recorded, namespace) : null;
	}

	/**
	 * {@inheritDoc}
	 * <p>Reads the layout object and updates it with the {@code resourceVersion} read; an update that another writer
	 * beat (409) reads again.
	 */
	@Override
	public boolean replaceLayout(String namespace, String expected, String replacement) {
		Objects.requireNonNull(expected, "expected");
		RecordedLayout.requireStorable("replacement", replacement);
		String action = "replace the layout of namespace '" + namespace + "'";
		String name = namePrefix(namespace) + LAYOUT_NAME;
		for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
			Lease recorded = getLayout(name, action);
			if (recorded == null || !expected.equals(recordedLayout(recorded, namespace))) {
				return false;
			}
			recorded.getMetadata().getAnnotations().put(LAYOUT_ANNOTATION, replacement);
			if (send("update", recorded, action).code() != 409) {
				return true;
			}
		}
		throw new LeaseStoreException("could not " + action + ": Lease " + name + " changed " + MAX_ATTEMPTS
				+ " times in a row while it was being replaced; find what else writes it");
	}

	/**
	 * {@inheritDoc}
	 * <p>A slot is held while its holder's lease has not ended by the API server's clock (the {@code Date} of the
	 * listing). An object whose mark cannot be read fails the call, naming it: its mark is unknown, so no layout
	 * change can be judged safe.
	 */
	@Override
	public List<SlotMark> slotMarks(String namespace) {
		String action = "read the slot marks of namespace '" + namespace + "'";
		Listing listing = list(namespace, action);
		List<SlotMark> marks = new ArrayList<>();
		for (Slot slot : listing.slots().values()) {
			if (slot.mark() == Long.MIN_VALUE) {
				throw new LeaseStoreException("cannot " + action + ": Lease " + slot.name() + " " + slot.problem()
						+ "; repair its annotation " + MARK_ANNOTATION + " (at least the last timestamp issued under "
						+ "the slot)");
			}
			// A holder whose expiry cannot be read is never taken over: it counts as holding the slot.
			boolean held = slot.holder() != null && (slot.problem() != null || !slot.isFree(listing.date()));
			marks.add(new SlotMark(slot.workerId(), slot.mark(), held));
		}
		return marks;
	}

	private @Nullable Lease getLayout(String name, String action) {
		Answer answer = call("get", "GET", leasesUrl() + "/" + name, null, action);
		if (answer.code() == 404) {
			return null;
		}
		Lease lease = this.client.getKubernetesSerialization().unmarshal(answer.body(), Lease.class);
		if (lease.getMetadata().getAnnotations() == null) {
			lease.getMetadata().setAnnotations(new LinkedHashMap<>());
		}
		return lease;
	}

	private String recordedLayout(Lease lease, String namespace) {
		Map<String, String> annotations = lease.getMetadata().getAnnotations();
		String layout = annotations.get(LAYOUT_ANNOTATION);
		if (layout == null || !namespace.equals(annotations.get(NAMESPACE_ANNOTATION))) {
			throw new LeaseStoreException("Lease " + lease.getMetadata().getName() + " in namespace '"
					+ this.kubernetesNamespace + "' is not the layout record of lease namespace '" + namespace
					+ "' (annotations " + LAYOUT_ANNOTATION + " and " + NAMESPACE_ANNOTATION + "): it was written "
					+ "outside id-starter; delete it, or give id-starter a name prefix of its own "
					+ "(id-worker.kubernetes.name-prefix)");
		}
		return layout;
	}

	/**
	 * Lists the {@code Lease} objects of the Kubernetes namespace once, to learn at start that the API server answers
	 * and grants the {@code list} verb, with the server's clock in its answer.
	 * @throws KubernetesAccessDeniedException if the service account may not list leases there
	 * @throws KubernetesApiUnreachableException if the API server does not answer
	 * @throws LeaseStoreException if it answers something else
	 */
	public void checkAccess() {
		call("list", "GET", leasesUrl(), null, "list the Lease objects of namespace '" + this.kubernetesNamespace + "'");
	}

	/**
	 * Returns the Kubernetes namespace of the {@code Lease} objects.
	 * @return the namespace
	 */
	public String getKubernetesNamespace() {
		return this.kubernetesNamespace;
	}

	/**
	 * Returns the first part of the names of a lease namespace's objects: {@code <prefix>-<namespace>-}, where a
	 * namespace that is not a DNS-1123 label is written in lower case with other characters as {@code -}, followed by
	 * 8 hex digits of its SHA-256, so that two namespaces never share names.
	 * @param namespace the lease namespace
	 * @return the prefix of its object names
	 */
	String namePrefix(String namespace) {
		if (namespace.length() <= MAX_LABEL_LENGTH && DNS_LABEL.matcher(namespace).matches()) {
			return this.namePrefix + "-" + namespace + "-";
		}
		String cleaned = namespace.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-");
		cleaned = cleaned.replaceAll("^-+|-+$", "");
		String hash = HexFormat.of().formatHex(sha256(namespace), 0, 4);
		return this.namePrefix + "-" + (cleaned.isEmpty() ? "" : cleaned + "-") + hash + "-";
	}

	String name(String namespace, int workerId) {
		return namePrefix(namespace) + workerId;
	}

	private Listing list(String namespace, String action) {
		Answer answer = call("list", "GET", leasesUrl(), null, action);
		LeaseList list = this.client.getKubernetesSerialization().unmarshal(answer.body(), LeaseList.class);
		String prefix = namePrefix(namespace);
		Map<Integer, Slot> slots = new HashMap<>();
		for (Lease lease : (list.getItems() != null) ? list.getItems() : List.<Lease>of()) {
			String name = (lease.getMetadata() != null) ? lease.getMetadata().getName() : null;
			if (name == null || !name.startsWith(prefix)) {
				continue;
			}
			String suffix = name.substring(prefix.length());
			if (!suffix.matches("0|[1-9][0-9]{0,9}") || Long.parseLong(suffix) > Integer.MAX_VALUE) {
				continue;
			}
			Slot slot = Slot.of(lease, Integer.parseInt(suffix), namespace);
			slots.put(slot.workerId(), slot);
		}
		return new Listing(slots, answer.date());
	}

	private Read get(WorkerLease lease, String action) {
		String name = name(lease.namespace(), lease.workerId());
		Answer answer = call("get", "GET", leasesUrl() + "/" + name, null, action);
		if (answer.code() == 404) {
			return new Read(null, answer.date());
		}
		Lease object = this.client.getKubernetesSerialization().unmarshal(answer.body(), Lease.class);
		return new Read(Slot.of(object, lease.workerId(), lease.namespace()), answer.date());
	}

	/**
	 * Creates or updates an object; an update carries the object's {@code resourceVersion}, so it succeeds only if
	 * nobody wrote the object since it was read.
	 * @return the answer, whose code is 409 if another writer came first
	 */
	private Answer send(String verb, Lease lease, String action) {
		String body = this.client.getKubernetesSerialization().asJson(lease);
		return "create".equals(verb) ? call(verb, "POST", leasesUrl(), body, action)
				: call(verb, "PUT", leasesUrl() + "/" + lease.getMetadata().getName(), body, action);
	}

	private String leasesUrl() {
		URL master = this.client.getMasterUrl();
		String base = master.toString().endsWith("/") ? master.toString() : master + "/";
		return base + "apis/coordination.k8s.io/v1/namespaces/" + this.kubernetesNamespace + "/leases";
	}

	/**
	 * Makes one call; 200, 201, 409, and 404 on a read are answers, anything else is a {@link LeaseStoreException}.
	 */
	private Answer call(String verb, String method, String url, @Nullable String body, String action) {
		HttpClient http = this.client.getHttpClient();
		HttpRequest.Builder builder = http.newHttpRequestBuilder().uri(url).header("Accept", JSON);
		if (body != null) {
			builder.method(method, JSON, body);
		}
		HttpResponse<String> response;
		try {
			response = http.sendAsync(builder.build(), String.class)
				.get(this.callTimeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LeaseStoreException("interrupted while trying to " + action + " on the Kubernetes API server "
					+ this.client.getMasterUrl(), ex);
		}
		catch (TimeoutException ex) {
			throw new KubernetesApiUnreachableException(this.client.getMasterUrl().toString(),
					"the Kubernetes API server " + this.client.getMasterUrl() + " did not answer within "
							+ this.callTimeout.toMillis() + " ms when trying to " + action
							+ "; check that it is reachable from this pod",
					ex);
		}
		catch (ExecutionException ex) {
			Throwable cause = (ex.getCause() != null) ? ex.getCause() : ex;
			throw new KubernetesApiUnreachableException(this.client.getMasterUrl().toString(),
					"could not reach the Kubernetes API server " + this.client.getMasterUrl() + " to " + action + ": "
							+ cause + "; check the cluster configuration (in-cluster service account, or the "
							+ "kubeconfig) and that the API server is reachable from this pod",
					cause);
		}
		int code = response.code();
		String text = (response.body() != null) ? response.body() : "";
		if (code == 403) {
			throw new KubernetesAccessDeniedException(verb, this.kubernetesNamespace, statusMessage(text));
		}
		if (code == 401) {
			throw new LeaseStoreException("the Kubernetes API server " + this.client.getMasterUrl() + " did not accept "
					+ "this pod's credentials when trying to " + action + " (401: " + statusMessage(text) + "); check "
					+ "the service account token or the kubeconfig's user");
		}
		if (!(code == 200 || code == 201 || code == 409 || (code == 404 && "get".equals(verb)))) {
			throw new LeaseStoreException("the Kubernetes API server " + this.client.getMasterUrl() + " answered "
					+ code + " to " + method + " " + url + " when trying to " + action + ": " + statusMessage(text)
					+ ((code == 404) ? "; check that Kubernetes namespace '" + this.kubernetesNamespace + "' exists"
							: ""));
		}
		return new Answer(code, text, serverDate(response, action));
	}

	/**
	 * Reads the API server's clock from an answer's {@code Date} header.
	 * @return the header's time, ms since the Unix epoch: the server's clock was in {@code [date, date + 1 s)}
	 */
	private long serverDate(HttpResponse<?> response, String action) {
		String date = response.header("Date");
		if (date == null) {
			throw new LeaseStoreException("the Kubernetes API server " + this.client.getMasterUrl() + " answered "
					+ "without a Date header when trying to " + action + "; id-starter judges lease expiry by the API "
					+ "server's clock and reads it there: remove whatever strips the header between this pod and the "
					+ "API server");
		}
		try {
			return ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
		}
		catch (DateTimeParseException ex) {
			throw new LeaseStoreException("the Kubernetes API server's Date header '" + date + "' is not an HTTP date ("
					+ "when trying to " + action + ")", ex);
		}
	}

	private String statusMessage(String body) {
		try {
			Map<?, ?> status = this.client.getKubernetesSerialization().unmarshal(body, Map.class);
			Object message = (status != null) ? status.get("message") : null;
			return (message != null) ? message.toString() : body;
		}
		catch (RuntimeException ex) {
			return body;
		}
	}

	private static Map<String, String> with(@Nullable Map<String, String> map, String key, String value) {
		Map<String, String> copy = (map != null) ? new LinkedHashMap<>(map) : new LinkedHashMap<>();
		copy.put(key, value);
		return copy;
	}

	/**
	 * Returns the TTL in whole seconds, rounded up: a lease never lasts less than asked.
	 */
	static int durationSeconds(Duration ttl) {
		return (int) Math.min(Integer.MAX_VALUE, Math.max(1, (ttl.toMillis() + 999) / 1000));
	}

	private static ZonedDateTime time(long epochMillis) {
		return Instant.ofEpochMilli(epochMillis).atZone(ZoneOffset.UTC);
	}

	private static byte[] sha256(String text) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("every Java runtime has SHA-256", ex);
		}
	}

	/**
	 * One answer of the API server.
	 * @param date its {@code Date} header, ms since the Unix epoch (whole seconds)
	 */
	private record Answer(int code, String body, long date) {

		/** The middle of the second the {@code Date} header names: the best single reading of the server's clock. */
		long storeTimeMillis() {
			return this.date + DATE_RESOLUTION_MILLIS / 2;
		}

	}

	/**
	 * A namespace's slots that have an object, and the server's {@code Date} of the answer that listed them.
	 */
	private record Listing(Map<Integer, Slot> slots, long date) {

		/** The slots as {@link SlotOrder} reads them: an unreadable one counts as held, so it is never offered. */
		List<SlotOrder.UsedSlot<Slot>> used() {
			List<SlotOrder.UsedSlot<Slot>> used = new ArrayList<>();
			for (Slot slot : this.slots.values()) {
				used.add((slot.problem() == null && slot.isFree(this.date))
						? new SlotOrder.UsedSlot<>(slot.workerId(), true, slot.freeSince(), slot)
						: SlotOrder.UsedSlot.held(slot.workerId(), slot));
			}
			return used;
		}

	}

	/**
	 * One slot's object, or none, and the server's {@code Date} of the answer that read it.
	 */
	private record Read(@Nullable Slot slot, long date) {

	}

	/**
	 * A slot as its object says, or a slot without an object ({@code lease == null}).
	 * @param mark the high-water mark, or {@link Long#MIN_VALUE} when it cannot be read (then {@code problem} says why)
	 * @param expiresAt when the holder's lease ends by the API server's clock (ms); for a free slot, when it was
	 * released
	 * @param problem why the slot must not be lent, or {@code null}
	 */
	record Slot(int workerId, @Nullable Lease lease, @Nullable String holder, String instance, long mark,
			long expiresAt, @Nullable String problem) {

		static Slot absent(int workerId) {
			return new Slot(workerId, null, null, "", -1, Long.MIN_VALUE, null);
		}

		static Slot of(Lease lease, int workerId, String namespace) {
			ObjectMeta metadata = lease.getMetadata();
			Map<String, String> annotations = (metadata.getAnnotations() != null) ? metadata.getAnnotations()
					: Map.of();
			LeaseSpec spec = (lease.getSpec() != null) ? lease.getSpec() : new LeaseSpec();
			if (lease.getSpec() == null) {
				lease.setSpec(spec);
			}
			if (metadata.getAnnotations() == null) {
				metadata.setAnnotations(new LinkedHashMap<>());
			}
			String holder = (spec.getHolderIdentity() != null && !spec.getHolderIdentity().isEmpty())
					? spec.getHolderIdentity() : null;
			String instance = annotations.getOrDefault(INSTANCE_ANNOTATION, "an unknown holder");
			String problem = null;
			long mark = Long.MIN_VALUE;
			String markText = annotations.get(MARK_ANNOTATION);
			if (!namespace.equals(annotations.get(NAMESPACE_ANNOTATION))) {
				problem = "does not say it belongs to lease namespace '" + namespace + "' (annotation "
						+ NAMESPACE_ANNOTATION + " is " + quote(annotations.get(NAMESPACE_ANNOTATION)) + ")";
			}
			else if (markText == null) {
				problem = "has no annotation " + MARK_ANNOTATION;
			}
			else {
				try {
					mark = Long.parseLong(markText.trim());
					if (mark < -1) {
						mark = Long.MIN_VALUE;
						problem = "has annotation " + MARK_ANNOTATION + " '" + markText + "', below -1";
					}
				}
				catch (NumberFormatException ex) {
					problem = "has annotation " + MARK_ANNOTATION + " '" + markText + "', not a number";
				}
			}
			ZonedDateTime renewTime = spec.getRenewTime();
			Integer seconds = spec.getLeaseDurationSeconds();
			long expiresAt = Long.MIN_VALUE;
			if (holder != null) {
				if (renewTime == null || seconds == null || seconds <= 0) {
					problem = (problem != null) ? problem : "has a holder but no renewTime or leaseDurationSeconds";
				}
				else {
					expiresAt = renewTime.toInstant().toEpochMilli() + seconds * 1000L;
				}
			}
			else if (renewTime != null) {
				expiresAt = renewTime.toInstant().toEpochMilli();
			}
			return new Slot(workerId, lease, holder, instance, mark, expiresAt, problem);
		}

		private static String quote(@Nullable String text) {
			return (text != null) ? "'" + text + "'" : "missing";
		}

		boolean exists() {
			return this.lease != null;
		}

		String name() {
			return (this.lease != null) ? this.lease.getMetadata().getName() : "(none)";
		}

		/**
		 * Whether the slot may be taken at a reading {@code now} of the server's clock, a lower bound of its time.
		 */
		boolean isFree(long now) {
			return this.holder == null || now >= this.expiresAt;
		}

		/** When the slot became free: released, or its lease ended. */
		long freeSince() {
			return this.expiresAt;
		}

	}

}
