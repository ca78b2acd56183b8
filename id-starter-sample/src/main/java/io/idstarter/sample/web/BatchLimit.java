package io.idstarter.sample.web;

import java.util.regex.Pattern;

import io.idstarter.sample.IdServerProperties;
import io.idstarter.sample.web.error.InvalidParameterException;

import org.springframework.stereotype.Component;

/**
 * Checks the {@code count} of batch requests against {@code id-server.batch.max-count}.
 */
@Component
class BatchLimit {

	/** A decimal integer, as the decode endpoint takes its ID: no hex, no {@code +}. */
	private static final Pattern DECIMAL = Pattern.compile("-?[0-9]{1,10}");

	private final int maxCount;

	BatchLimit(IdServerProperties properties) {
		this.maxCount = properties.getBatch().getMaxCount();
	}

	/**
	 * Parses and checks a requested batch size.
	 * @param text the {@code count} parameter
	 * @return the count
	 * @throws InvalidParameterException if it is not a decimal 32-bit integer, or outside {@code [1, maxCount]}
	 */
	int check(String text) {
		if (!DECIMAL.matcher(text).matches()) {
			throw new InvalidParameterException("count", text, "must be a 32-bit integer");
		}
		try {
			return check(Integer.parseInt(text));
		}
		catch (NumberFormatException ex) {
			throw new InvalidParameterException("count", text, "must be a 32-bit integer");
		}
	}

	/**
	 * Checks a requested batch size.
	 * @param count the {@code count} parameter
	 * @return {@code count}
	 * @throws InvalidParameterException if it is outside {@code [1, maxCount]}
	 */
	int check(int count) {
		if (count < 1 || count > this.maxCount) {
			throw new InvalidParameterException("count", count, "must be between 1 and " + this.maxCount
					+ " (id-server.batch.max-count)");
		}
		return count;
	}

}
