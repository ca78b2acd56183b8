package io.idstarter.sample.fleet;

import java.security.Principal;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LayoutChangeCheck;
import io.idstarter.lease.LayoutChangeStep;
import io.idstarter.lease.LayoutChangeStep.Refusal;
import io.idstarter.lease.LeaseRequest;
import io.idstarter.sample.IdServerProperties;
import io.idstarter.sample.web.LogSafe;
import io.idstarter.sample.web.error.InvalidParameterException;
import io.idstarter.snowflake.RecordedLayout;
import io.idstarter.store.http.FleetMessages;
import io.idstarter.store.http.FleetMessages.Layout;
import io.idstarter.store.http.FleetMessages.LayoutReplaceRequest;
import io.idstarter.store.http.FleetMessages.LayoutReplaced;
import io.idstarter.store.http.FleetMessages.LayoutRequest;
import io.idstarter.store.http.FleetMessages.SlotMarks;
import jakarta.validation.Valid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The layout calls of the fleet API: a namespace's recorded Snowflake layout and its slots' marks in this server's
 * lease store ({@link ISequenceManager#recordLayout}, {@link ISequenceManager#readLayout},
 * {@link ISequenceManager#replaceLayout}, {@link ISequenceManager#slotMarks}), under the same grants as the
 * namespace's leases ({@link FleetController}). This server judges every step of a planned change a client asks for by
 * the rules a lease keeper applies to its own ({@link LayoutChangeStep}), from its own read of the slots, and computes
 * a completion's floor itself: a client's word is never taken for them.
 *
 * <p>Recording a layout where none is recorded is not judged: the lease keeper of an honest client records only when
 * the holders of the namespace's slots renewed or let their leases end without recording theirs again (its own rule,
 * which needs a wait this server cannot make within one request), and a client that skips its keeper needs no record
 * to issue IDs that collide: it issues them itself, under any worker ID. A running node that then finds another
 * layout recorded stops issuing and says so.
 */
@RestController
@RequestMapping("/api/fleet")
public class FleetLayoutController {

	private static final Logger logger = LoggerFactory.getLogger(FleetLayoutController.class);

	/** How long a layout replacement's answer is kept for a retry with the same request ID. */
	private static final Duration LAYOUT_REPLAY = Duration.ofMinutes(5);

	private final ISequenceManager leases;

	private final FleetGrants grants;

	private final IdServerProperties.Fleet limits;

	private final IdempotentRequests requests = new IdempotentRequests();

	FleetLayoutController(ISequenceManager leases, FleetGrants grants, IdServerProperties properties) {
		this.leases = leases;
		this.grants = grants;
		this.limits = properties.getFleet();
	}

	/**
	 * Records a namespace's layout unless one is recorded: {@link ISequenceManager#recordLayout(String, String)}. A
	 * text that is no recorded layout, or a pending one, is 400.
	 * @param request the namespace and the client's layout
	 * @param client the authenticated client
	 * @return the recorded layout, or none if this server's store keeps no layouts
	 */
	@PostMapping("/layouts")
	public Layout recordLayout(@Valid @RequestBody LayoutRequest request, Principal client) {
		this.grants.checkNamespace(client.getName(), request.namespace());
		if (parseLayout("layout", request.layout()).pending()) {
			throw new InvalidParameterException("layout", request.layout(), "must not be pending ('replacing='): only "
					+ "a planned change, which replaces a recorded layout, records one");
		}
		return new Layout(request.namespace(), this.leases.recordLayout(request.namespace(), request.layout()));
	}

	/**
	 * Reads a namespace's recorded layout: {@link ISequenceManager#readLayout(String)}.
	 * @param namespace the namespace
	 * @param client the authenticated client
	 * @return the recorded layout, or none if none is recorded
	 */
	@GetMapping("/layouts")
	public Layout readLayout(@RequestParam String namespace, Principal client) {
		checkNamespace(namespace, client);
		return new Layout(namespace, this.leases.readLayout(namespace));
	}

	/**
	 * Replaces a namespace's layout if it is still the expected one, for one step of a planned layout change:
	 * {@link ISequenceManager#replaceLayout(String, String, String)}, judged by {@link LayoutChangeStep} from this
	 * server's read of the namespace's slots, with its clock plus the longest lease TTL plus
	 * {@code id-server.fleet.clock-allowance} as the latest millisecond from which the new layout's IDs may sort above
	 * the old ones'. A completion records the floor this server computes, whatever floor-id the client names. A step
	 * the slots do not allow is refused (409 {@code layout-change-refused}) while the record is still the expected
	 * one; once it is not, the answer is {@code false}, as the compare-and-set would answer. A replacement that is no
	 * step of a planned change is 409, a text that is no recorded layout 400. With a request ID, a retry of the same
	 * request that reaches this server gets the first attempt's answer; the same ID with another body is 400.
	 * @param request the namespace, the layout recorded now, the new one, and the client's request ID
	 * @param client the authenticated client
	 * @return whether the expected layout was recorded and is replaced now
	 */
	@PostMapping("/layouts/replace")
	public LayoutReplaced replaceLayout(@Valid @RequestBody LayoutReplaceRequest request, Principal client) {
		this.grants.checkNamespace(client.getName(), request.namespace());
		RecordedLayout expected = parseLayout("expected", request.expected());
		RecordedLayout replacement = parseLayout("replacement", request.replacement());
		if (request.requestId() == null) {
			return replace(client.getName(), request, expected, replacement);
		}
		return this.requests.once(client.getName() + "/layout/" + request.requestId(), request, LAYOUT_REPLAY,
				() -> replace(client.getName(), request, expected, replacement));
	}

	private LayoutReplaced replace(String client, LayoutReplaceRequest request, RecordedLayout expected,
			RecordedLayout replacement) {
		String namespace = request.namespace();
		LayoutChangeStep step;
		try {
			step = LayoutChangeStep.of(expected, replacement, () -> this.leases.slotMarks(namespace));
		}
		catch (IllegalArgumentException ex) {
			throw FleetRefusedException.layoutChangeRefused(namespace, ex.getMessage());
		}
		Refusal refusal = step.refusal(System.currentTimeMillis() + FleetMessages.MAX_TTL_MILLIS
				+ this.limits.getClockAllowance().toMillis());
		if (refusal != null) {
			if (!request.expected().equals(this.leases.readLayout(namespace))) {
				// The compare-and-set would fail: a held slot may be a node's of the new layout, as a keeper judges.
				return new LayoutReplaced(false);
			}
			throw FleetRefusedException.layoutChangeRefused(namespace, refusal(step, refusal));
		}
		String written = step.text(request.replacement());
		boolean replaced = this.leases.replaceLayout(namespace, request.expected(), written);
		if (replaced) {
			logger.info("Client '{}' replaced the layout of namespace '{}' by '{}'", client, LogSafe.escape(namespace),
					LogSafe.escape(written));
		}
		return new LayoutReplaced(replaced);
	}

	private static String refusal(LayoutChangeStep step, Refusal refusal) {
		LayoutChangeCheck check = Objects.requireNonNull(step.check(), "check");
		if (refusal == Refusal.SLOTS_HELD) {
			return "worker IDs " + check.held() + " are held: a layout is changed only when no node of the old layout "
					+ "can issue any more";
		}
		String when = (check.notBefore() == Long.MAX_VALUE) ? "never (the new layout runs out first)"
				: "only from " + Instant.ofEpochMilli(check.notBefore());
		return "the new layout's IDs sort above ID " + check.floorId() + ", the greatest the layouts before it allow "
				+ "under the slots' marks and the record's floor-id, " + when + ", later than this server's clock plus "
				+ "the longest lease TTL plus id-server.fleet.clock-allowance";
	}

	/**
	 * Reads a namespace's slots with their marks: {@link ISequenceManager#slotMarks(String)}.
	 * @param namespace the namespace
	 * @param client the authenticated client
	 * @return the slots
	 */
	@GetMapping("/slot-marks")
	public SlotMarks slotMarks(@RequestParam String namespace, Principal client) {
		checkNamespace(namespace, client);
		return new SlotMarks(namespace, this.leases.slotMarks(namespace));
	}

	/**
	 * Checks a namespace given as a query parameter, as the request bodies' namespaces are checked, and that it is
	 * granted to the client.
	 */
	private void checkNamespace(String namespace, Principal client) {
		if (namespace.isBlank() || namespace.length() > LeaseRequest.MAX_NAMESPACE_LENGTH) {
			throw new InvalidParameterException("namespace", namespace, "must be 1 to "
					+ LeaseRequest.MAX_NAMESPACE_LENGTH + " characters");
		}
		this.grants.checkNamespace(client.getName(), namespace);
	}

	/**
	 * Reads a layout text as a recorded layout, or refuses it as a bad request naming the field.
	 * @param field the request's field, for the answer
	 * @param text the text
	 * @return the layout
	 */
	static RecordedLayout parseLayout(String field, String text) {
		try {
			return RecordedLayout.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidParameterException(field, text, "must be a recorded Snowflake layout ("
					+ "epoch=...;timestamp-bits=...;worker-id-bits=...;sequence-bits=...): " + ex.getMessage());
		}
	}

}
