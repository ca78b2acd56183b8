package io.idstarter.store.http;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;

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
 * <p>Gives back ({@link #giveBack}) through the servers ({@code POST /api/fleet/segments/{key}/give-back}), retried
 * on the next server like the other calls. A give-back is a compare-and-set of the key's {@code max_id} from the
 * range's end to the cursor, so a retry after a lost answer finds {@code max_id == cursor}; the servers answer
 * {@code true} then as well. That is safe for the node's high mark, which follows a give-back that succeeded: after
 * this node's range was allocated, {@code max_id} stays at its end or above until this node gives it back (only
 * allocations raise it, and only the give-back of the latest range lowers it, to a number inside that range), so
 * finding it at the cursor means the give-back took place. Reading it as a refusal instead would keep the mark at the
 * range's end, above the store, and the node's next start would be refused as a lost write. A server too old to have
 * the call (404) counts as a store that does not give back: the tail stays a gap, as before.
 */
public class HttpSegmentStore implements SegmentStore {

	private final IdServerClient client;

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
		FleetMessages.Range answer = this.client.call("allocate a range of key '" + key + "'", HttpMethod.POST, path,
				new FleetMessages.RangeRequest(step, UUID.randomUUID().toString()), FleetMessages.Range.class,
				(problem) -> refusal(problem, key), SegmentStoreException::new);
		try {
			return Objects.requireNonNull(answer, "no range").toAllocation();
		}
		catch (RuntimeException ex) {
			throw new SegmentStoreException("ID server answered an invalid range of key '" + key + "': " + answer, ex);
		}
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

	@Override
	public boolean giveBack(String key, long cursor, long end) {
		SegmentKeys.checkGiveBack(key, cursor, end);
		String path = "api/fleet/segments/" + UriUtils.encodePathSegment(key, StandardCharsets.UTF_8) + "/give-back";
		FleetMessages.GiveBackResult answer;
		try {
			answer = this.client.call("give back [" + cursor + ", " + end + ") of key '" + key + "'", HttpMethod.POST,
					path, new FleetMessages.GiveBackRequest(cursor, end), FleetMessages.GiveBackResult.class,
					(problem) -> giveBackRefusal(problem, key), SegmentStoreException::new);
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
