package io.idstarter.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Base62: 11 characters of {@code 0-9 A-Z a-z}, the shortest fixed-width form of an ID that is safe in URLs.
 *
 * <p>The alphabet is in ASCII order and encoding pads with {@code 0}, so strings sort like the numbers under a
 * binary (case-sensitive) comparison such as {@link String#compareTo}. Decoding is case-sensitive: {@code a} and
 * {@code A} are different digits. Store Base62 IDs in case-sensitive columns only: under a case-insensitive collation
 * two different IDs can compare equal. {@code Long.MAX_VALUE} is {@code AzL8n0Y58m7}.
 */
public final class Base62 implements IdCodec {

	/** The codec; it has no state. */
	public static final Base62 INSTANCE = new Base62();

	/** Characters of every text form: 62^11 > 2^63 > 62^10. */
	public static final int WIDTH = 11;

	private static final String NAME = "Base62";

	private static final int RADIX = 62;

	private static final byte[] ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		.getBytes(StandardCharsets.US_ASCII);

	private static final String ALLOWED = "0-9, A-Z, a-z";

	/** Digit value of each ASCII character, -1 for characters outside the alphabet. */
	private static final byte[] DIGITS = new byte[128];

	/** Greatest value that can take another digit without passing {@code Long.MAX_VALUE}, bar the last digit. */
	private static final long LIMIT = Long.MAX_VALUE / RADIX;

	/** Greatest digit that may follow {@link #LIMIT}. */
	private static final long LIMIT_LAST_DIGIT = Long.MAX_VALUE % RADIX;

	static {
		Arrays.fill(DIGITS, (byte) -1);
		for (int i = 0; i < ALPHABET.length; i++) {
			DIGITS[ALPHABET[i]] = (byte) i;
		}
	}

	private Base62() {
	}

	@Override
	public String encode(long id) {
		if (id < 0) {
			throw CodecErrors.negative(NAME, id);
		}
		byte[] text = new byte[WIDTH];
		for (int i = WIDTH - 1; i >= 0; i--) {
			text[i] = ALPHABET[(int) (id % RADIX)];
			id /= RADIX;
		}
		return new String(text, StandardCharsets.US_ASCII);
	}

	@Override
	public long decode(CharSequence text) {
		if (text.length() != WIDTH) {
			throw CodecErrors.wrongLength(NAME, WIDTH, text);
		}
		long id = 0;
		boolean overflow = false;
		for (int i = 0; i < WIDTH; i++) {
			char c = text.charAt(i);
			int digit = (c < DIGITS.length) ? DIGITS[c] : -1;
			if (digit < 0) {
				throw CodecErrors.badCharacter(NAME, text, i, ALLOWED);
			}
			if (id > LIMIT || (id == LIMIT && digit > LIMIT_LAST_DIGIT)) {
				overflow = true;
			}
			id = id * RADIX + digit;
		}
		if (overflow) {
			throw CodecErrors.overflow(NAME, text, encode(Long.MAX_VALUE));
		}
		return id;
	}

	@Override
	public int width() {
		return WIDTH;
	}

	@Override
	public String toString() {
		return NAME;
	}

}
