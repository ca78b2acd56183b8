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
 * <p>Does not give back ({@link SegmentStore#giveBack} answers {@code false}): the fleet API has no give-back
 * endpoint yet. One must check that the calling client may use the key, as the range endpoint does, and compare
 * against the end of the range in the servers' store; until it exists, a client-mode node leaves the unused tail of
 * its ranges as a gap at shutdown, as before.
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

}
