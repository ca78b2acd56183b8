package io.idstarter.sample.web;

import io.idstarter.segment.SegmentIdGenerator;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Segment IDs: one number space per key, keys created in the store (Leaf's {@code biz_tag}).
 */
@RestController
@RequestMapping("/api/segment")
public class SegmentIdController {

	private final SegmentIdGenerator ids;

	private final BatchLimit batchLimit;

	SegmentIdController(SegmentIdGenerator ids, BatchLimit batchLimit) {
		this.ids = ids;
		this.batchLimit = batchLimit;
	}

	/**
	 * Returns the next ID of a key as plain text, as Leaf's server does.
	 * @param key the key
	 * @return the ID in decimal
	 */
	@GetMapping("/get/{key}")
	public String get(@PathVariable String key) {
		return Long.toString(this.ids.nextId(key));
	}

	/**
	 * Returns {@code count} IDs of a key, increasing, as a JSON array.
	 * @param key the key
	 * @param count how many, 1 to {@code id-server.batch.max-count}
	 * @param format {@code number} (default) or {@code string}
	 * @return the IDs
	 */
	@GetMapping("/batch/{key}")
	public Object batch(@PathVariable String key, @RequestParam int count,
			@RequestParam(defaultValue = "number") String format) {
		IdFormat idFormat = IdFormat.of(format);
		return idFormat.write(this.ids.nextIds(key, this.batchLimit.check(count)));
	}

}
