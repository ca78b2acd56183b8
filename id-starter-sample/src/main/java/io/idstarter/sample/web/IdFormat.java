package io.idstarter.sample.web;

import java.util.Arrays;
import java.util.Locale;

import io.idstarter.sample.web.error.InvalidParameterException;

/**
 * How a batch of IDs is written in JSON: as numbers, or as decimal strings for clients that cannot hold 64-bit
 * integers (JavaScript's numbers are exact only up to 2^53).
 */
enum IdFormat {

	/** JSON numbers: {@code [1001,1002]}. */
	NUMBER,

	/** JSON strings: {@code ["1001","1002"]}. */
	STRING;

	/**
	 * Reads the {@code format} request parameter, ignoring case.
	 * @param value the parameter
	 * @return the format
	 * @throws InvalidParameterException if the value names no format
	 */
	static IdFormat of(String value) {
		for (IdFormat format : values()) {
			if (format.name().equalsIgnoreCase(value.trim())) {
				return format;
			}
		}
		throw new InvalidParameterException("format", value, "must be one of "
				+ Arrays.toString(values()).toLowerCase(Locale.ROOT));
	}

	/**
	 * Returns the IDs as this format writes them.
	 * @param ids the IDs
	 * @return {@code ids} itself, or their decimal strings
	 */
	Object write(long[] ids) {
		if (this == NUMBER) {
			return ids;
		}
		String[] strings = new String[ids.length];
		for (int i = 0; i < ids.length; i++) {
			strings[i] = Long.toString(ids[i]);
		}
		return strings;
	}

}
