package io.idstarter.sample.web;

import io.idstarter.sample.IdServerProperties;

import org.springframework.stereotype.Component;

/**
 * Checks the {@code count} of batch requests against {@code id-server.batch.max-count}.
 */
@Component
class BatchLimit {

	private final int maxCount;

	BatchLimit(IdServerProperties properties) {
		this.maxCount = properties.getBatch().getMaxCount();
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
