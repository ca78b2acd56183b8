package io.idstarter.autoconfigure;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import io.idstarter.segment.SegmentIdGenerator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Checks, once every singleton exists, that the segment keys entity IDs are declared with (such as
 * {@code @SegmentGeneratedId(key = "order")}) are in the store, so that a missing key stops the start instead of the
 * first insert. The keys are registered while the entity mappings are read.
 *
 * @since 0.1.0
 */
public final class SegmentKeysCheck implements SmartInitializingSingleton {

	private final ObjectProvider<SegmentIdGenerator> segments;

	/** Keys to check and where each is used; written while mappings are read, read once after. */
	private final Map<String, Set<String>> required = new TreeMap<>();

	/**
	 * Creates the check.
	 * @param segments the segment generator, looked up after every singleton exists
	 */
	public SegmentKeysCheck(ObjectProvider<SegmentIdGenerator> segments) {
		this.segments = segments;
	}

	/**
	 * Registers a key an entity ID needs.
	 * @param key the segment key
	 * @param usedBy where it is used, for the message ({@code Entity.attribute})
	 */
	public void require(String key, String usedBy) {
		synchronized (this.required) {
			this.required.computeIfAbsent(key, (unused) -> new TreeSet<>()).add(usedBy);
		}
	}

	@Override
	public void afterSingletonsInstantiated() {
		SegmentIdGenerator generator = this.segments.getIfUnique();
		if (generator == null) {
			return;
		}
		Set<String> keys = generator.keys();
		synchronized (this.required) {
			for (Map.Entry<String, Set<String>> entry : this.required.entrySet()) {
				if (!keys.contains(entry.getKey())) {
					throw new IllegalStateException("The segment key '" + entry.getKey() + "' of "
							+ String.join(", ", entry.getValue()) + " is not in the segment store (it has " + keys + "): create it "
							+ "(SegmentKeyAdmin.createKey, the ID server's admin API, or an INSERT into the "
							+ "segment table) before the application starts");
				}
			}
		}
	}

}
