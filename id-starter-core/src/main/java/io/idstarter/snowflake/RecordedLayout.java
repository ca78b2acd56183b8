package io.idstarter.snowflake;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * A namespace's layout as the lease store records it, so that nodes whose IDs would not mix are kept apart: the first
 * node of a namespace records its layout, and every later node compares its own with it.
 *
 * <p>The stored form is one line of text, e.g.
 * {@code epoch=2010-11-04T01:42:54.657Z;timestamp-bits=41;worker-id-bits=10;sequence-bits=12;preset=twitter}. Stores
 * keep it as an opaque string of at most {@link #MAX_LENGTH} characters. Two recorded layouts are the same when their
 * epoch and widths are; the preset name only tells people where the values came from.
 *
 * <p>A layout that replaced another by a planned change also records the greatest ID the old layout may have issued
 * ({@code floor-id}): no node of the new layout issues an ID at or below it. While the change is not yet complete
 * ({@code replacing=<old epoch>/<old widths>[/<old floor-id>]}), no node of either layout issues: the node that
 * completes it checks that no slot is held any more (a node of the old layout, which now finds another layout
 * recorded, can take none) and computes the floor from the slots' marks by the old layout. The old record's floor-id
 * is kept in the pending one so that a refused change puts back exactly what it replaced.
 *
 * @param layout the epoch and widths
 * @param preset the preset the layout was chosen by ({@code twitter}, {@code shardingsphere}, {@code leaf}), or
 * {@code null} for a layout set by its values
 * @param floorId the greatest ID the layout this one replaced may have issued, or {@code -1} if it replaced none
 * @param replacing the record this one is replacing while the change is not yet complete (its layout and floor-id;
 * no preset, nothing pending), else {@code null}
 * @since 0.2.0
 */
public record RecordedLayout(SnowflakeLayout layout, @Nullable String preset, long floorId,
		@Nullable RecordedLayout replacing) {

	/** Longest stored form a store must keep. */
	public static final int MAX_LENGTH = 255;

	private static final Pattern PRESET_NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

	private static final String EPOCH = "epoch";

	private static final String TIMESTAMP_BITS = "timestamp-bits";

	private static final String WORKER_ID_BITS = "worker-id-bits";

	private static final String SEQUENCE_BITS = "sequence-bits";

	private static final String PRESET = "preset";

	private static final String FLOOR_ID = "floor-id";

	private static final String REPLACING = "replacing";

	public RecordedLayout {
		Objects.requireNonNull(layout, "layout");
		checkPreset("preset", preset);
		if (floorId < -1) {
			throw new IllegalArgumentException("floorId must be -1 or an ID: " + floorId);
		}
		if (replacing != null && (replacing.preset != null || replacing.replacing != null)) {
			throw new IllegalArgumentException("replacing must be a layout and floor-id only: " + replacing);
		}
	}

	/**
	 * Checks a preset name as the record keeps it: 1 to 64 letters, digits, '.', '_' or '-', so that it can never
	 * break the stored form.
	 * @param name what the name is, for the message ({@code preset}, {@code layoutPreset})
	 * @param preset the name, or {@code null}
	 * @return the name
	 * @throws IllegalArgumentException naming the rule and the value if the name breaks it
	 */
	public static @Nullable String checkPreset(String name, @Nullable String preset) {
		if (preset != null && !PRESET_NAME.matcher(preset).matches()) {
			throw new IllegalArgumentException(name + " must be 1 to 64 letters, digits, '.', '_' or '-': " + preset);
		}
		return preset;
	}

	/**
	 * Creates the record a node writes when it finds none: no layout replaced.
	 * @param layout the epoch and widths
	 * @param preset the preset's name, or {@code null}
	 */
	public RecordedLayout(SnowflakeLayout layout, @Nullable String preset) {
		this(layout, preset, -1, null);
	}

	/**
	 * Returns this layout as the pending replacement of another.
	 * @param old the record replaced, not pending itself
	 * @return the pending record
	 */
	public RecordedLayout replacing(RecordedLayout old) {
		Objects.requireNonNull(old, "old");
		if (old.pending()) {
			throw new IllegalArgumentException("a pending record is completed or put back, never replaced: " + old);
		}
		return new RecordedLayout(this.layout, this.preset, -1, new RecordedLayout(old.layout, null, old.floorId, null));
	}

	/**
	 * Returns whether this layout is replacing another and the change is not yet complete.
	 * @return whether no node may issue under the record yet
	 */
	public boolean pending() {
		return this.replacing != null;
	}

	/**
	 * Returns this layout as the completed replacement of a layout whose IDs reach up to {@code floorId}.
	 * @param floorId the greatest ID the replaced layout may have issued
	 * @return the completed record
	 */
	public RecordedLayout completedAbove(long floorId) {
		return new RecordedLayout(this.layout, this.preset, floorId, null);
	}

	/**
	 * Returns the stored form.
	 * @return one line, at most {@link #MAX_LENGTH} characters
	 */
	public String format() {
		return EPOCH + "=" + this.layout.epoch() + ";" + TIMESTAMP_BITS + "=" + this.layout.timestampBits() + ";"
				+ WORKER_ID_BITS + "=" + this.layout.workerIdBits() + ";" + SEQUENCE_BITS + "="
				+ this.layout.sequenceBits() + ((this.preset != null) ? ";" + PRESET + "=" + this.preset : "")
				+ ((this.floorId >= 0) ? ";" + FLOOR_ID + "=" + this.floorId : "")
				+ ((this.replacing != null) ? ";" + REPLACING + "=" + compact(this.replacing) : "");
	}

	/**
	 * Reads a stored form. Keys it does not know are skipped, so that a later version may record more.
	 * @param text what a store returned
	 * @return the layout
	 * @throws IllegalArgumentException naming the text if it is not a recorded layout (a store whose record was
	 * written by something else)
	 */
	public static RecordedLayout parse(String text) {
		Objects.requireNonNull(text, "text");
		Map<String, String> fields = new LinkedHashMap<>();
		for (String part : text.split(";")) {
			int equals = part.indexOf('=');
			if (equals > 0) {
				fields.put(part.substring(0, equals).trim(), part.substring(equals + 1).trim());
			}
		}
		try {
			Instant epoch = Instant.parse(required(fields, EPOCH, text));
			int timestampBits = Integer.parseInt(required(fields, TIMESTAMP_BITS, text));
			int workerIdBits = Integer.parseInt(required(fields, WORKER_ID_BITS, text));
			int sequenceBits = Integer.parseInt(required(fields, SEQUENCE_BITS, text));
			SnowflakeLayout layout = layout(epoch, timestampBits, workerIdBits, sequenceBits);
			String floorId = fields.get(FLOOR_ID);
			String replacing = fields.get(REPLACING);
			return new RecordedLayout(layout, fields.get(PRESET), (floorId != null) ? Long.parseLong(floorId) : -1,
					(replacing != null) ? uncompact(replacing) : null);
		}
		catch (DateTimeParseException | IllegalArgumentException ex) {
			throw new IllegalArgumentException("not a recorded Snowflake layout: '" + text + "' (" + ex.getMessage()
					+ "); the store's layout record was written by something other than id-starter", ex);
		}
	}

	/**
	 * Checks that a store can keep a text as a layout record: not empty and at most {@link #MAX_LENGTH} characters.
	 * Stores call this before writing, so that a text they would cut or refuse fails the same way on every store.
	 * @param name what the text is, for the message ({@code layout}, {@code replacement})
	 * @param text the text
	 * @return the text
	 * @throws IllegalArgumentException naming the length if the text is empty or too long
	 */
	public static String requireStorable(String name, String text) {
		Objects.requireNonNull(text, name);
		if (text.isEmpty() || text.length() > MAX_LENGTH) {
			throw new IllegalArgumentException(name + " must be 1 to " + MAX_LENGTH
					+ " characters (a recorded layout's stored form), was " + text.length() + ": '"
					+ ((text.length() > 80) ? text.substring(0, 80) + "..." : text) + "'");
		}
		return text;
	}

	private static SnowflakeLayout layout(Instant epoch, int timestampBits, int workerIdBits, int sequenceBits) {
		return (timestampBits + workerIdBits + sequenceBits < SnowflakeLayout.TOTAL_BITS)
				? SnowflakeLayout.javaScriptSafe(epoch, timestampBits, workerIdBits, sequenceBits)
				: SnowflakeLayout.of(epoch, timestampBits, workerIdBits, sequenceBits);
	}

	/**
	 * {@code 2010-11-04T01:42:54.657Z/41/10/12}, and {@code /<floor-id>} if it has one: short, so that a pending record
	 * stays within MAX_LENGTH.
	 */
	private static String compact(RecordedLayout record) {
		SnowflakeLayout layout = record.layout;
		return layout.epoch() + "/" + layout.timestampBits() + "/" + layout.workerIdBits() + "/"
				+ layout.sequenceBits() + ((record.floorId >= 0) ? "/" + record.floorId : "");
	}

	private static RecordedLayout uncompact(String text) {
		String[] parts = text.split("/");
		if (parts.length != 4 && parts.length != 5) {
			throw new IllegalArgumentException("'" + REPLACING + "' is not <epoch>/<bits>/<bits>/<bits>[/<floor-id>]");
		}
		SnowflakeLayout layout = layout(Instant.parse(parts[0]), Integer.parseInt(parts[1]),
				Integer.parseInt(parts[2]), Integer.parseInt(parts[3]));
		return new RecordedLayout(layout, null, (parts.length == 5) ? Long.parseLong(parts[4]) : -1, null);
	}

	private static String required(Map<String, String> fields, String key, String text) {
		String value = fields.get(key);
		if (value == null) {
			throw new IllegalArgumentException("'" + key + "' is missing");
		}
		return value;
	}

	/**
	 * Returns whether IDs of the two layouts are laid out alike: the same epoch and widths, whatever the presets.
	 * @param other the other recorded layout
	 * @return whether the layouts are equal
	 */
	public boolean sameLayoutAs(RecordedLayout other) {
		return this.layout.equals(other.layout);
	}

	/**
	 * Describes the layout for messages: {@code epoch 2010-11-04T01:42:54.657Z, 41/10/12 bits (preset twitter)}.
	 * @return the description
	 */
	public String describe() {
		return "epoch " + this.layout.epoch() + ", " + this.layout.timestampBits() + "/" + this.layout.workerIdBits()
				+ "/" + this.layout.sequenceBits() + " timestamp/worker-ID/sequence bits"
				+ ((this.preset != null) ? " (preset " + this.preset + ")" : "")
				+ ((this.floorId >= 0) ? ", above ID " + this.floorId + " of the layout it replaced" : "")
				+ ((this.replacing != null) ? ", replacing " + compact(this.replacing) + " (change not complete)" : "");
	}

}
