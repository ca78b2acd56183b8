package io.idstarter.autoconfigure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentMarks;
import io.idstarter.segment.SegmentStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Creates the keys of {@code id-worker.segment.keys} that the store lacks, before the segment generator reads the key
 * list. A key that exists is left as it is. A key this node has a high mark for is one the store lost: it is created
 * only if its declared first ID is at or above that mark; otherwise it is left missing (the generator reports it, and
 * health is down) rather than created where it would repeat numbers. The bean of this type has done its work once it
 * exists; the segment generator depends on it.
 *
 * @since 0.1.0
 */
public final class DeclaredSegmentKeys {

	private static final Logger logger = LoggerFactory.getLogger(DeclaredSegmentKeys.class);

	private static final String PREFIX = "id-worker.segment.keys.";

	private final List<String> created;

	private DeclaredSegmentKeys(List<String> created) {
		this.created = created;
	}

	/**
	 * Returns the keys this start created (the others existed, or were left missing below a mark).
	 * @return the key names, in declaration order
	 */
	public List<String> created() {
		return this.created;
	}

	/**
	 * Creates the missing keys.
	 * @param store the segment store
	 * @param keys the declared keys by name
	 * @param marks this node's high marks
	 * @return what was created
	 * @throws InvalidConfigurationPropertyValueException if the store refuses a key's name, first ID or step, or
	 * cannot create keys at all
	 */
	static DeclaredSegmentKeys create(SegmentStore store, Map<String, IdWorkerProperties.Key> keys,
			SegmentMarks marks) {
		if (keys.isEmpty()) {
			return none();
		}
		if (!(store instanceof SegmentKeyAdmin admin)) {
			String name = keys.keySet().iterator().next();
			throw new InvalidConfigurationPropertyValueException(PREFIX + name, name, "the segment store "
					+ store.getClass().getName() + " cannot create keys (it does not implement SegmentKeyAdmin); "
					+ "create the keys in the store by hand and remove id-worker.segment.keys");
		}
		List<String> created = new ArrayList<>();
		// One read of the list instead of a look-up per key: the keys that exist are left alone.
		Set<String> existing = store.keys();
		for (Map.Entry<String, IdWorkerProperties.Key> entry : keys.entrySet()) {
			String name = entry.getKey();
			IdWorkerProperties.Key key = entry.getValue();
			if (existing.contains(name)) {
				logger.debug("Segment key '{}' exists; left unchanged", name);
				continue;
			}
			long mark = marks.highMark(name);
			if (mark > key.getFirstId()) {
				logger.error("Segment key '{}' is missing from the store, but this node was given numbers of it up to "
						+ "{}: the store lost it. Not creating it at first ID {} ({}{}.first-id), where it would repeat "
						+ "numbers; create it at or above the highest such mark of every node that used it (set "
						+ "{}{}.first-id to at least {}, or use SegmentKeyAdmin)", name, mark, key.getFirstId(), PREFIX,
						name, PREFIX, name, mark);
				continue;
			}
			boolean wasCreated;
			try {
				wasCreated = admin.createKey(name, key.getFirstId(), key.getStep(), key.getDescription());
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + name, name,
						"the segment store refuses it: " + ex.getMessage());
			}
			if (wasCreated) {
				if (mark > 0) {
					logger.warn("Segment key '{}' was missing from the store; created it at first ID {}, at or above "
							+ "this node's high mark {}", name, key.getFirstId(), mark);
				}
				else {
					logger.info("Created segment key '{}' (first ID {}, step {})", name, key.getFirstId(),
							key.getStep());
				}
				created.add(name);
			}
			else {
				logger.debug("Segment key '{}' was created by another node meanwhile; left unchanged", name);
			}
		}
		return new DeclaredSegmentKeys(List.copyOf(created));
	}

	static DeclaredSegmentKeys none() {
		return new DeclaredSegmentKeys(List.of());
	}

}
