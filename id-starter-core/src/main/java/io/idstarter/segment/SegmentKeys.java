package io.idstarter.segment;

import java.util.Objects;

/**
 * The rules every {@link SegmentStore} and {@link SegmentKeyAdmin} applies to keys, steps, first IDs and
 * descriptions, written once: a store checks its arguments here before it touches its storage, so that every store
 * accepts and refuses the same values with the same messages.
 */
public final class SegmentKeys {

	/** Longest key, the width of Leaf's {@code biz_tag} column. */
	public static final int MAX_KEY_LENGTH = 128;

	/** Longest description, the width of Leaf's {@code description} column. */
	public static final int MAX_DESCRIPTION_LENGTH = 256;

	private SegmentKeys() {
	}

	/**
	 * Checks a key: 1 to {@value #MAX_KEY_LENGTH} characters from ASCII letters, digits, {@code .}, {@code _},
	 * {@code :} and {@code -} (safe in SQL, Redis key names, URLs, metric tags and log lines).
	 * @param key the key
	 * @return the key
	 * @throws IllegalArgumentException if the key is not allowed
	 */
	public static String checkKey(String key) {
		Objects.requireNonNull(key, "key");
		if (key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
			throw new IllegalArgumentException("key must be 1 to " + MAX_KEY_LENGTH + " characters, it has "
					+ key.length() + ": '" + abbreviate(key) + "'");
		}
		for (int i = 0; i < key.length(); i++) {
			if (!isKeyCharacter(key.charAt(i))) {
				throw new IllegalArgumentException("key may hold only ASCII letters, digits, '.', '_', ':' and '-' "
						+ "([A-Za-z0-9._:-]); '" + key + "' has '" + key.charAt(i) + "' at index " + i);
			}
		}
		return key;
	}

	/**
	 * Checks a step, configured or chosen by the caller.
	 * @param key the key, for the message
	 * @param step the step
	 * @throws IllegalArgumentException if the step is below 1
	 */
	public static void checkStep(String key, int step) {
		if (step < 1) {
			throw new IllegalArgumentException("step of key '" + key + "' must be at least 1: " + step);
		}
	}

	/**
	 * Checks a range tail given back to the store.
	 * @param key the key
	 * @param cursor the first number not handed out: at least 0 and below {@code end}
	 * @param end the end of the range
	 * @throws IllegalArgumentException if the key is not allowed or the tail is not a range of at least one number
	 */
	public static void checkGiveBack(String key, long cursor, long end) {
		checkKey(key);
		if (cursor < 0 || cursor >= end) {
			throw new IllegalArgumentException("A range of key '" + key + "' can be given back from a cursor in [0, end "
					+ end + "), not from " + cursor + "; pass the first number that was not handed out, and give back "
					+ "nothing of a range that was used up");
		}
	}

	/**
	 * Checks what a new key is created with.
	 * @param key the key
	 * @param firstId the first ID it will issue: at least 0, and the first range must stay below
	 * {@link Long#MAX_VALUE}
	 * @param step its configured step
	 * @param description free text for operators, at most {@value #MAX_DESCRIPTION_LENGTH} characters
	 * @throws IllegalArgumentException if any of them is not allowed
	 */
	public static void checkNewKey(String key, long firstId, int step, String description) {
		checkKey(key);
		checkStep(key, step);
		checkFirstId(key, firstId, step);
		checkDescription(key, description);
	}

	/**
	 * Checks the first ID of a new key.
	 * @param key the key, for the message
	 * @param firstId the first ID: at least 0, and the first range must stay below {@link Long#MAX_VALUE}
	 * @param step its configured step
	 * @throws IllegalArgumentException if the first ID is not allowed
	 */
	public static void checkFirstId(String key, long firstId, int step) {
		if (firstId < 0 || firstId > Long.MAX_VALUE - step) {
			throw new IllegalArgumentException("first ID of key '" + key + "' must be in [0, Long.MAX_VALUE - step ("
					+ (Long.MAX_VALUE - step) + ")]: " + firstId);
		}
	}

	/**
	 * Checks the description of a new key.
	 * @param key the key, for the message
	 * @param description free text for operators, at most {@value #MAX_DESCRIPTION_LENGTH} characters
	 * @throws IllegalArgumentException if the description is too long
	 */
	public static void checkDescription(String key, String description) {
		Objects.requireNonNull(description, "description");
		if (description.length() > MAX_DESCRIPTION_LENGTH) {
			throw new IllegalArgumentException("description of key '" + key + "' must be at most "
					+ MAX_DESCRIPTION_LENGTH + " characters: it has " + description.length());
		}
	}

	private static boolean isKeyCharacter(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_'
				|| c == ':' || c == '-';
	}

	private static String abbreviate(String key) {
		return (key.length() <= MAX_KEY_LENGTH) ? key : key.substring(0, MAX_KEY_LENGTH) + "...";
	}

}
