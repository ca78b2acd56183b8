package io.idstarter.codec;

/**
 * A fixed-width text form of non-negative IDs whose strings sort, character by character, in the order of the
 * numbers. Implementations: {@link Crockford32} and {@link Base62}.
 */
public interface IdCodec {

	/**
	 * Returns the text form of an ID, always {@link #width()} characters.
	 * @param id an ID in {@code [0, Long.MAX_VALUE]}
	 * @return its text form
	 * @throws IllegalArgumentException if {@code id} is negative
	 */
	String encode(long id);

	/**
	 * Returns the ID a text form stands for.
	 * @param text exactly {@link #width()} characters of the codec's alphabet
	 * @return the ID, in {@code [0, Long.MAX_VALUE]}
	 * @throws IllegalArgumentException if the text has the wrong length, a character outside the alphabet (the
	 * message gives the character and its index), or a value above {@code Long.MAX_VALUE}
	 */
	long decode(CharSequence text);

	/**
	 * Returns the number of characters of every text form.
	 * @return the width
	 */
	int width();

}
