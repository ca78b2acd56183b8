package io.idstarter.sample.web;

import java.util.regex.Pattern;

import io.idstarter.sample.web.error.InvalidParameterException;
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

	/** A decimal number without sign: what a Snowflake ID looks like. */
	private static final Pattern DECIMAL = Pattern.compile("[0-9]{1,19}");

	private final SnowflakeIdGenerator ids;

	SnowflakeIdController(SnowflakeIdGenerator ids, BatchLimit batchLimit) {
		super(ids, batchLimit);
		this.ids = ids;
	}

	/**
	 * Splits a Snowflake ID of this server's layout into its time, worker ID and sequence.
	 * @param text the ID in decimal, positive (no sign, no hex: Spring's number conversion would read {@code 0x10}
	 * and {@code #10} as hex)
	 * @return its fields
	 */
	@GetMapping("/decode/{id}")
	public DecodedSnowflakeId decode(@PathVariable("id") String text) {
		if (!DECIMAL.matcher(text).matches()) {
			throw new InvalidParameterException("id", text, "must be a 64-bit integer");
		}
		long id;
		try {
			id = Long.parseLong(text);
		}
		catch (NumberFormatException ex) {
			throw new InvalidParameterException("id", text, "must be a 64-bit integer");
		}
		if (id <= 0) {
			throw new InvalidParameterException("id", id, "must be a positive Snowflake ID");
		}
		return DecodedSnowflakeId.of(this.ids.parse(id), this.ids.layout());
	}

}
