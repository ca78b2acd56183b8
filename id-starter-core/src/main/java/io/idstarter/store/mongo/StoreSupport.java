package io.idstarter.store.mongo;

import java.util.List;

import com.mongodb.ErrorCategory;
import com.mongodb.MongoWriteException;
import com.mongodb.client.MongoCollection;
import org.bson.Document;
import org.jspecify.annotations.Nullable;

/**
 * Helpers shared by the MongoDB stores: strict reading of numeric fields, insert-if-absent and messages.
 */
final class StoreSupport {

	/** BSON types a counter may have: 32- and 64-bit integers (a double would lose precision above 2^53). */
	static final List<String> INTEGER_TYPES = List.of("int", "long");

	private StoreSupport() {
	}

	/**
	 * Checks a collection name given to a store.
	 * @param collection the name
	 * @return the name
	 * @throws IllegalArgumentException if MongoDB would refuse it or keep it for itself
	 * @see MongoCollectionNames#check(String)
	 */
	static String requireCollection(String collection) {
		return MongoCollectionNames.check(collection);
	}

	/**
	 * Inserts a document unless one with the same {@code _id} exists: the insert is the atomic step, a duplicate key
	 * error (E11000) means another writer was first.
	 * @param collection the collection
	 * @param document the document, with its {@code _id}
	 * @return {@code true} if inserted, {@code false} if the {@code _id} was taken
	 */
	static boolean insertIfAbsent(MongoCollection<Document> collection, Document document) {
		try {
			collection.insertOne(document);
			return true;
		}
		catch (MongoWriteException ex) {
			if (ex.getError().getCategory() == ErrorCategory.DUPLICATE_KEY) {
				return false;
			}
			throw ex;
		}
	}

	/**
	 * Returns an integer field, or {@code null} when it is absent or not a 32- or 64-bit integer.
	 * @param document the document
	 * @param field the field name
	 * @return the value
	 */
	static @Nullable Long integer(Document document, String field) {
		Object value = document.get(field);
		if (value instanceof Long number) {
			return number;
		}
		if (value instanceof Integer number) {
			return number.longValue();
		}
		return null;
	}

	/**
	 * Describes a field's value for an error message: its BSON-ish type and value.
	 * @param document the document
	 * @param field the field name
	 * @return for example {@code "string 'abc'"} or {@code "missing"}
	 */
	static String describe(Document document, String field) {
		if (!document.containsKey(field)) {
			return "missing";
		}
		Object value = document.get(field);
		if (value == null) {
			return "null";
		}
		String type = switch (value.getClass().getSimpleName()) {
			case "Integer" -> "int";
			case "Long" -> "long";
			case "Double" -> "double";
			case "String" -> "string";
			case "Date" -> "date";
			default -> value.getClass().getSimpleName();
		};
		return type + " '" + value + "'";
	}

}
