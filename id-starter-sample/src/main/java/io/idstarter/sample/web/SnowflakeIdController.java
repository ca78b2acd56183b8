package io.idstarter.sample.web;

import io.idstarter.snowflake.SnowflakeIdGenerator;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Snowflake IDs: one number space shared by every key (the key is accepted for Leaf's clients and ignored), ordered
 * by time; and decoding them back into their fields.
 */
@RestController
@RequestMapping("/api/snowflake")
public class SnowflakeIdController extends LeafIdEndpoints {

	private final SnowflakeIdGenerator ids;

	SnowflakeIdController(SnowflakeIdGenerator ids, BatchLimit batchLimit) {
		super(ids, batchLimit);
		this.ids = ids;
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
