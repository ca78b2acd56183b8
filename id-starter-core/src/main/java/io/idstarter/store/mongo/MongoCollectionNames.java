package io.idstarter.store.mongo;

import java.util.Objects;

/**
 * The rule for the collection names the MongoDB stores and sequences are given, stated once for the stores and for
 * the settings that name their collections.
 */
public final class MongoCollectionNames {

	/** Longest name accepted: MongoDB limits the namespace (database, dot, collection) to 255 bytes. */
	public static final int MAX_LENGTH = 120;

	private MongoCollectionNames() {
	}

	/**
	 * Checks a collection name.
	 * @param collection the name
	 * @return the name
	 * @throws IllegalArgumentException if it is blank, longer than {@value #MAX_LENGTH} characters, contains '$' or a
	 * NUL character, or starts with {@code system.}, which MongoDB keeps for its own collections
	 */
	public static String check(String collection) {
		Objects.requireNonNull(collection, "collection");
		if (collection.isBlank() || collection.length() > MAX_LENGTH || collection.contains("$")
				|| collection.indexOf('\0') >= 0 || collection.startsWith("system.")) {
			throw new IllegalArgumentException("collection name must be 1 to " + MAX_LENGTH + " characters, without '$',"
					+ " and not start with 'system.' (MongoDB keeps those for itself): '" + collection + "'");
		}
		return collection;
	}

}
