package io.idstarter.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Crockford's Base32: 13 characters of {@code 0-9 A-Z} without {@code I L O U}, for IDs people read aloud or type.
 *
 * <p>Encoding writes upper case and pads with {@code 0} to 13 characters, so strings sort like the numbers (also
 * under case-insensitive collations). Decoding ignores case and reads Crockford's look-alikes: {@code I} and
 * {@code L} as {@code 1}, {@code O} as {@code 0}. Hyphens and the optional check symbol of Crockford's specification
 * are not accepted: every valid form has exactly 13 characters. {@code Long.MAX_VALUE} is {@code 7ZZZZZZZZZZZZ}.
 *
 * @see <a href="https://www.crockford.com/base32.html">Crockford's Base32</a>
 */
public final class Crockford32 implements IdCodec {

	/** The codec; it has no state. */
	public static final Crockford32 INSTANCE = new Crockford32();

	/** Characters of every text form: 13 x 5 = 65 bits hold the 63 of an ID. */
	public static final int WIDTH = 13;

	private static final String NAME = "Crockford32";

	private static final byte[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".getBytes(StandardCharsets.US_ASCII);

	private static final String ALLOWED = "0-9, A-Z except U, any case; I and L read as 1, O as 0";

	/** Digit value of each ASCII character, -1 for characters outside the alphabet. */
	private static final byte[] DIGITS = new byte[128];

	/** Greatest first digit: the first character carries the top 3 bits. */
	private static final int MAX_FIRST_DIGIT = 7;

	static {
		Arrays.fill(DIGITS, (byte) -1);
		for (int i = 0; i < ALPHABET.length; i++) {
			DIGITS[ALPHABET[i]] = (byte) i;
			DIGITS[Character.toLowerCase(ALPHABET[i])] = (byte) i;
		}
		DIGITS['I'] = 1;
		DIGITS['i'] = 1;
		DIGITS['L'] = 1;
		DIGITS['l'] = 1;
		DIGITS['O'] = 0;
		DIGITS['o'] = 0;
	}

	private Crockford32() {
	}

	@Override
	public String encode(long id) {
		if (id < 0) {
			throw CodecErrors.negative(NAME, id);
		}
		byte[] text = new byte[WIDTH];
		for (int i = WIDTH - 1; i >= 0; i--) {
			text[i] = ALPHABET[(int) (id & 31)];
			id >>>= 5;
		}
		return new String(text, StandardCharsets.US_ASCII);
	}

	@Override
	public long decode(CharSequence text) {
		if (text.length() != WIDTH) {
			throw CodecErrors.wrongLength(NAME, WIDTH, text);
		}
		long id = 0;
		for (int i = 0; i < WIDTH; i++) {
			char c = text.charAt(i);
			int digit = (c < DIGITS.length) ? DIGITS[c] : -1;
			if (digit < 0) {
				throw CodecErrors.badCharacter(NAME, text, i, ALLOWED);
			}
			id = (id << 5) | digit;
		}
		if (DIGITS[text.charAt(0)] > MAX_FIRST_DIGIT) {
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
