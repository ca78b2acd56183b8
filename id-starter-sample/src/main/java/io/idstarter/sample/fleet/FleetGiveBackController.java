package io.idstarter.sample.fleet;

import java.security.Principal;
import java.time.Duration;

import io.idstarter.sample.IdServerProperties;
import io.idstarter.sample.web.LogSafe;
import io.idstarter.sample.web.error.InvalidParameterException;
import io.idstarter.segment.SegmentKeys;
import io.idstarter.segment.SegmentStore;
import io.idstarter.store.http.FleetMessages.GiveBackRequest;
import io.idstarter.store.http.FleetMessages.GiveBackResult;
import jakarta.validation.Valid;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The give-back call of the fleet API: a client-mode node that closes gracefully returns the unused tail of its
 * latest range to this server's store ({@link SegmentStore#giveBack(String, long, long)}), so that the next range
 * starts where it stopped. Granted per key exactly as the range call of {@link FleetController}.
 *
 * <p>The store's compare-and-set moves {@code max_id} from {@code end} back to {@code cursor} where nobody allocated
 * after the range, but it cannot tell the client's allocation from a later one that ended at the same number. So this
 * server gives back only within a range it handed to the same client ({@link RangeLedger}), at most once per range,
 * and answers a repeated request ID with the first attempt's answer without running it again. Otherwise a client
 * could lower {@code max_id} below ranges others hold, and a give-back run twice (after an answer lost on the way to
 * the client, when another client drew the same range in between) would lower it under that client's numbers: a
 * duplicate. A give-back this server cannot vouch for is answered {@code false}: the tail stays a gap.
 *
 * <p>What no server can check is the client's cursor: a client granted a key could give back numbers it already
 * issued, and other clients of the key would then issue them again. A key is granted only to clients trusted with its
 * uniqueness (such a client can in any case issue whatever numbers it likes itself); where they are not,
 * {@code id-server.fleet.give-back=false} answers every give-back {@code false}.
 */
@RestController
@RequestMapping("/api/fleet")
public class FleetGiveBackController {

	private static final Logger logger = LoggerFactory.getLogger(FleetGiveBackController.class);

	/** How long a give-back's answer is kept for a request repeated with the same request ID. */
	private static final Duration GIVE_BACK_REPLAY = Duration.ofMinutes(5);

	private final SegmentStore segments;

	private final FleetGrants grants;

	private final RangeLedger ranges;

	private final IdempotentRequests requests = new IdempotentRequests();

	/** Whether give-backs run at all ({@code id-server.fleet.give-back}). */
	private final boolean enabled;

	FleetGiveBackController(SegmentStore segments, FleetGrants grants, RangeLedger ranges,
			IdServerProperties properties) {
		this.segments = segments;
		this.grants = grants;
		this.ranges = ranges;
		this.enabled = properties.getFleet().isGiveBack();
	}

	/**
	 * Gives back the unused tail {@code [cursor, end)} of a range this server handed to the client:
	 * {@link SegmentStore#giveBack(String, long, long)}, at most once per range and per request ID.
	 * @param key the key
	 * @param request the tail, and the client's request ID
	 * @param client the authenticated client
	 * @return whether this give-back moved the key's {@code max_id} back to {@code cursor}; {@code false} (nothing
	 * changed) when someone allocated after the range, the key is unknown, this server did not hand the range to
	 * this client or took it back already, or give-backs are turned off ({@code id-server.fleet.give-back})
	 */
	@PostMapping("/segments/{key}/give-back")
	public GiveBackResult giveBack(@PathVariable String key, @Valid @RequestBody GiveBackRequest request,
			Principal client) {
		if (key.isBlank() || key.length() > SegmentKeys.MAX_KEY_LENGTH) {
			throw new InvalidParameterException("key", key,
					"must be 1 to " + SegmentKeys.MAX_KEY_LENGTH + " characters");
		}
		this.grants.checkKey(client.getName(), key);
		long cursor = request.cursor();
		long end = request.end();
		if (cursor >= end) {
			throw new InvalidParameterException("cursor", cursor,
					"must be below end (" + end + "): the tail [cursor, end) is what the range left unused");
		}
		if (!this.enabled) {
			return new GiveBackResult(key, false);
		}
		if (request.requestId() == null) {
			return giveBack(client.getName(), key, cursor, end);
		}
		return this.requests.once(client.getName() + "/give-back/" + key + "/" + request.requestId(), request,
				GIVE_BACK_REPLAY, () -> giveBack(client.getName(), key, cursor, end));
	}

	private GiveBackResult giveBack(String client, String key, long cursor, long end) {
		if (!this.ranges.take(client, key, cursor, end)) {
			logger.info("Did not give back [{}, {}) of key '{}' for client '{}': this server did not hand that range "
					+ "to it, or took it back already", cursor, end, LogSafe.escape(key), client);
			return new GiveBackResult(key, false);
		}
		boolean given = this.segments.giveBack(key, cursor, end);
		if (given) {
			logger.info("Client '{}' gave back [{}, {}) of key '{}'", client, cursor, end, LogSafe.escape(key));
		}
		return new GiveBackResult(key, given);
	}

}
