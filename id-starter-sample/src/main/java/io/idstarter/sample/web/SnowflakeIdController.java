package io.idstarter.sample.web;

import io.idstarter.snowflake.SnowflakeIdGenerator;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Snowflake IDs: one number space shared by every key, ordered by time; and decoding them back into their fields.
 */
@RestController
@RequestMapping("/api/snowflake")
public class SnowflakeIdController {

	private final SnowflakeIdGenerator ids;

	private final BatchLimit batchLimit;

	SnowflakeIdController(SnowflakeIdGenerator ids, BatchLimit batchLimit) {
		this.ids = ids;
		this.batchLimit = batchLimit;
	}

	/**
	 * Returns the next ID as plain text, as Leaf's server does. The key is accepted for Leaf's clients and ignored.
	 * @param key any key
	 * @return the ID in decimal
	 */
	@GetMapping("/get/{key}")
	public String get(@PathVariable String key) {
		return Long.toString(this.ids.nextId(key));
	}

	/**
	 * Returns {@code count} IDs, increasing, as a JSON array.
	 * @param key any key (ignored)
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

	/**
	 * Splits a Snowflake ID of this server's layout into its time, worker ID and sequence.
	 * @param id the ID in decimal, positive
	 * @return its fields
	 */
	@GetMapping("/decode/{id}")
	public DecodedSnowflakeId decode(@PathVariable long id) {
		if (id <= 0) {
			throw new InvalidParameterException("id", id, "must be a positive Snowflake ID");
		}
		return DecodedSnowflakeId.of(this.ids.parse(id), this.ids.layout());
	}

}
