package io.idstarter.sample.fleet;

import java.security.Principal;

import io.idstarter.sample.web.LogSafe;
import io.idstarter.sample.web.error.InvalidParameterException;
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
 * starts where it stopped. Granted per key exactly as the range call of {@link FleetController}: a client gives back
 * only for keys it may draw from.
 *
 * <p>The store's compare-and-set moves {@code max_id} from {@code end} back to {@code cursor} only where nobody
 * allocated after the range. An attempt whose answer was lost on the way to the client has done that already, and
 * the client's retry (on this or another server) then finds {@code max_id == cursor}. The answer is {@code true} in
 * that case too, which is what {@link SegmentStore#giveBack} promises ("{@code max_id} is now {@code cursor}"). It is
 * safe: {@code max_id} only grows by allocations and falls only by the give-back of the latest range, to a number
 * inside it, so after this client's range {@code [start, end)} was allocated it stays at {@code end} or above until
 * this client's own give-back; finding it at a {@code cursor} below {@code end} therefore means that give-back took
 * place (ranges allocated from there since and given back whole bring it back to the same place). The node then
 * lowers its high mark to {@code cursor}, exactly as after an answer that arrived; a refusal would keep the mark at
 * {@code end}, above a store that did give back, and its next start would be refused as a lost write. If another
 * client allocated between the lost answer and the retry, the answer is {@code false}: safe for uniqueness, though
 * the node keeps its higher mark and may refuse ranges below it until the store passes it.
 */
@RestController
@RequestMapping("/api/fleet")
public class FleetGiveBackController {

	private static final Logger logger = LoggerFactory.getLogger(FleetGiveBackController.class);

	private static final int MAX_KEY_LENGTH = 128;

	private final SegmentStore segments;

	private final FleetGrants grants;

	FleetGiveBackController(SegmentStore segments, FleetGrants grants) {
		this.segments = segments;
		this.grants = grants;
	}

	/**
	 * Gives back the unused tail {@code [cursor, end)} of a range: {@link SegmentStore#giveBack(String, long, long)}.
	 * Repeating it is harmless: a retry of a give-back that went through answers {@code true} again.
	 * @param key the key
	 * @param request the tail
	 * @param client the authenticated client
	 * @return whether the key's {@code max_id} is now {@code cursor}; {@code false} (nothing changed) when someone
	 * allocated after the range or the key is unknown
	 */
	@PostMapping("/segments/{key}/give-back")
	public GiveBackResult giveBack(@PathVariable String key, @Valid @RequestBody GiveBackRequest request,
			Principal client) {
		if (key.isBlank() || key.length() > MAX_KEY_LENGTH) {
			throw new InvalidParameterException("key", key, "must be 1 to " + MAX_KEY_LENGTH + " characters");
		}
		this.grants.checkKey(client.getName(), key);
		long cursor = request.cursor();
		long end = request.end();
		if (cursor > end) {
			throw new InvalidParameterException("cursor", cursor,
					"must be at most end (" + end + "): the tail [cursor, end) is what the range left unused");
		}
		boolean given = this.segments.giveBack(key, cursor, end)
				|| (cursor < end && this.segments.giveBack(key, cursor, cursor));
		if (given) {
			logger.info("Client '{}' gave back [{}, {}) of key '{}'", client.getName(), cursor, end,
					LogSafe.escape(key));
		}
		return new GiveBackResult(key, given);
	}

}
