package io.idstarter.sample.web;

import io.idstarter.IdWorker;
import org.jspecify.annotations.Nullable;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestAttribute;
import org.springframework.web.bind.annotation.RequestParam;

/**
 * The endpoints every ID mode serves under its own path, in the shape of Leaf's server: one ID as plain text, and a
 * batch as a JSON array.
 */
abstract class LeafIdEndpoints {

	private final IdWorker ids;

	private final BatchLimit batchLimit;

	LeafIdEndpoints(IdWorker ids, BatchLimit batchLimit) {
		this.ids = ids;
		this.batchLimit = batchLimit;
	}

	/**
	 * Returns the next ID of a key as plain text, as Leaf's server does. {@link PlainIdFilter} answers the plain
	 * requests before they get here; the others come here, and so do those whose ID it could not issue.
	 * @param key the key (modes with one number space accept any key, for Leaf's clients)
	 * @param failure why {@link PlainIdFilter} could not issue an ID for this request, thrown here (not tried
	 * again) so that it is answered as every error of this server
	 * @return the ID in decimal
	 */
	@GetMapping("/get/{key}")
	public String get(@PathVariable String key,
			@RequestAttribute(name = PlainIdFilter.FAILURE, required = false) @Nullable RuntimeException failure) {
		if (failure != null) {
			throw failure;
		}
		return Long.toString(this.ids.nextId(key));
	}

	/**
	 * Returns {@code count} IDs of a key, increasing, as a JSON array.
	 * @param key the key (modes with one number space accept any key)
	 * @param count how many, 1 to {@code id-server.batch.max-count}, in decimal (Spring's number conversion would
	 * read {@code 0x10} and {@code #10} as hex, which the decode endpoint refuses)
	 * @param format {@code number} (default) or {@code string}
	 * @return the IDs
	 */
	@GetMapping("/batch/{key}")
	public Object batch(@PathVariable String key, @RequestParam String count,
			@RequestParam(defaultValue = "number") String format) {
		IdFormat idFormat = IdFormat.of(format);
		return idFormat.write(this.ids.nextIds(key, this.batchLimit.check(count)));
	}

}
