package io.idstarter.store.http;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

import io.idstarter.segment.RangeReceipts;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentKeyExhaustedException;
import io.idstarter.segment.SegmentKeys;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.segment.UnknownKeyException;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpMethod;
import org.springframework.web.util.UriUtils;

/**
 * A {@link SegmentStore} that draws ranges from the ID servers ({@code POST /api/fleet/segments/{key}/ranges}); the
 * servers allocate them in their shared store. Each allocation carries a request ID, the same on every retry, so a
 * retry that reaches the same server after a lost answer gets the same range; a retry on another server draws a
 * new one and the first becomes a gap, never a duplicate.
 *
 * <p>Gives back ({@link #giveBack}) through the server that handed the range out
 * ({@code POST /api/fleet/segments/{key}/give-back}), once, with a request ID of its own: that server takes back only
 * a range it handed to this client, and runs a give-back at most once. A give-back is never retried, on that server
 * or another. The store's compare-and-set ({@code max_id} from the range's end back to the cursor) cannot tell this
 * node's allocation from a later one that ended at the same number: after a give-back whose answer was lost, another
 * node may draw the same range, {@code max_id} is back at its end, and a retry would lower it again below numbers
 * that node issues. So a give-back that failed, or whose answer was lost, stays a gap; the node keeps its high mark
 * lowered (a weaker guard for the tail only, see {@link io.idstarter.segment.SegmentMarks#lower}). A range whose
 * server is no longer known (one this store did not hand out, or forgot among many keys) is not given back. A server
 * too old to have the call (404) counts as a store that does not give back: the tail stays a gap, as before.
 */
public class HttpSegmentStore implements SegmentStore {

	private final IdServerClient client;

	/** The server that handed out each of the latest ranges per key: only it can take the range back. */
	private final RangeReceipts<String> servers = RangeReceipts.withDefaultBounds();

	/**
	 * Creates the store.
	 * @param client the ID servers
	 */
	public HttpSegmentStore(IdServerClient client) {
		this.client = client;
	}

	@Override
	public SegmentAllocation allocate(String key) {
		SegmentKeys.checkKey(key);
		return allocate(key, null);
	}

	@Override
	public SegmentAllocation allocate(String key, int step) {
		SegmentKeys.checkKey(key);
		SegmentKeys.checkStep(key, step);
		return allocate(key, (Integer) step);
	}

	private SegmentAllocation allocate(String key, @Nullable Integer step) {
		String path = "api/fleet/segments/" + UriUtils.encodePathSegment(key, StandardCharsets.UTF_8) + "/ranges";
		IdServerClient.Answered<FleetMessages.Range> answered = this.client.callAnswered(
				"allocate a range of key '" + key + "'", HttpMethod.POST, path,
				new FleetMessages.RangeRequest(step, UUID.randomUUID().toString()), FleetMessages.Range.class,
				(problem) -> refusal(problem, key), SegmentStoreException::new);
		FleetMessages.Range answer = answered.body();
		SegmentAllocation range;
		try {
			range = Objects.requireNonNull(answer, "no range").toAllocation();
		}
		catch (RuntimeException ex) {
			throw new SegmentStoreException("ID server answered an invalid range of key '" + key + "': " + answer, ex);
		}
		this.servers.put(key, range.end(), answered.server());
		return range;
	}

	private static @Nullable RuntimeException refusal(IdServerClient.Problem problem, String key) {
		if ("unknown-key".equals(problem.code())) {
			return new UnknownKeyException(key);
		}
		if ("key-exhausted".equals(problem.code())) {
			return new SegmentKeyExhaustedException(key, "ID server: " + problem.detail());
		}
		if (problem.status() == 400) {
			return new SegmentStoreException(
					"ID server refused the range request of key '" + key + "' as invalid: " + problem.detail());
		}
		return null;
	}

	/**
	 * Gives back through the server that handed the range out, once; {@code false} without a call for a range this
	 * store did not hand out (or no longer remembers).
	 * @throws SegmentStoreException if that server could not be reached or its answer was lost: the tail stays a gap
	 */
	@Override
	public boolean giveBack(String key, long cursor, long end) {
		SegmentKeys.checkGiveBack(key, cursor, end);
		String server = this.servers.take(key, end);
		if (server == null) {
			return false;
		}
		String path = "api/fleet/segments/" + UriUtils.encodePathSegment(key, StandardCharsets.UTF_8) + "/give-back";
		FleetMessages.GiveBackResult answer;
		try {
			answer = this.client.callOnce(server, "give back [" + cursor + ", " + end + ") of key '" + key + "'",
					HttpMethod.POST, path, new FleetMessages.GiveBackRequest(cursor, end, UUID.randomUUID().toString()),
					FleetMessages.GiveBackResult.class, (problem) -> giveBackRefusal(problem, key),
					SegmentStoreException::new);
		}
		catch (NoGiveBackException ex) {
			return false;
		}
		if (answer == null) {
			throw new SegmentStoreException("ID server answered no give-back result for key '" + key + "'");
		}
		return answer.givenBack();
	}

	private static @Nullable RuntimeException giveBackRefusal(IdServerClient.Problem problem, String key) {
		if (problem.status() == 404 || problem.status() == 405) {
			// An ID server without the give-back call: the tail stays a gap.
			return new NoGiveBackException();
		}
		if (problem.status() == 400) {
			return new SegmentStoreException(
					"ID server refused the give-back of key '" + key + "' as invalid: " + problem.detail());
		}
		return null;
	}

	@Override
	public Set<String> keys() {
		FleetMessages.Keys answer = this.client.call("list the segment keys", HttpMethod.GET, "api/fleet/segments",
				null, FleetMessages.Keys.class, (problem) -> null, SegmentStoreException::new);
		if (answer == null || answer.keys() == null) {
			throw new SegmentStoreException("ID server answered no key list: " + answer);
		}
		return new LinkedHashSet<>(answer.keys());
	}

	/**
	 * Asks the ID servers for one key ({@code GET /api/fleet/segments?key=...}): the key if the server's store has it
	 * and it is granted to this client. A server that predates the parameter answers every granted key, which holds
	 * the same answer.
	 */
	@Override
	public boolean containsKey(String key) {
		String path = "api/fleet/segments?key=" + UriUtils.encodeQueryParam(key, StandardCharsets.UTF_8);
		FleetMessages.Keys answer = this.client.call("look up segment key '" + key + "'", HttpMethod.GET, path, null,
				FleetMessages.Keys.class, (problem) -> null, SegmentStoreException::new);
		if (answer == null || answer.keys() == null) {
			throw new SegmentStoreException("ID server answered no key list: " + answer);
		}
		return answer.keys().contains(key);
	}

	/**
	 * Returns the ID servers this store calls.
	 * @return the client
	 */
	public IdServerClient client() {
		return this.client;
	}

	/** An ID server that has no give-back call. */
	private static final class NoGiveBackException extends RuntimeException {

		private static final long serialVersionUID = 1L;

		NoGiveBackException() {
			super(null, null, false, false);
		}

	}

}
