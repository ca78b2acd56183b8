package io.idstarter.sample.keys;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.idstarter.sample.IdServerProperties;
import io.idstarter.segment.SegmentKeyAdmin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates the keys listed under {@code id-server.keys} that the segment store lacks; keys that exist are left as they
 * are, so starting again changes nothing. Runs before the segment generator reads the store's keys.
 */
public final class InitialSegmentKeys {

	private static final Logger logger = LoggerFactory.getLogger(InitialSegmentKeys.class);

	private final List<String> created;

	/**
	 * Creates the missing keys.
	 * @param admin the store's key administration
	 * @param keys the keys to have
	 * @throws io.idstarter.segment.SegmentStoreException if the store cannot be reached or is not set up
	 * @throws IllegalArgumentException if the store refuses a key's name, first ID or step
	 */
	public InitialSegmentKeys(SegmentKeyAdmin admin, List<IdServerProperties.Key> keys) {
		List<String> created = new ArrayList<>();
		for (IdServerProperties.Key key : keys) {
			String name = Objects.requireNonNull(key.getName(), "key name");
			if (admin.createKey(name, key.getFirstId(), key.getStep(), key.getDescription())) {
				logger.info("Created segment key '{}' (first ID {}, step {})", name, key.getFirstId(), key.getStep());
				created.add(name);
			}
			else {
				logger.debug("Segment key '{}' exists; left unchanged", name);
			}
		}
		this.created = List.copyOf(created);
	}

	private InitialSegmentKeys() {
		this.created = List.of();
	}

	/**
	 * Returns the result of creating no keys, for a server without a segment store.
	 * @return an instance that created nothing
	 */
	static InitialSegmentKeys none() {
		return new InitialSegmentKeys();
	}

	/**
	 * Returns the keys this start created (the others existed).
	 * @return the key names
	 */
	public List<String> created() {
		return this.created;
	}

}
