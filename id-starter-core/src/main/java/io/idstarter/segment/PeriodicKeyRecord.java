package io.idstarter.segment;

import java.time.ZoneId;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * What a period's segment key records of its periodic key, in the key's description in the store: the reset, the
 * zone and the format. Nodes that decide periods in different zones would assign numbers to periods hours apart, and
 * one node's retention could delete a period another still draws from, which that node would create again and count
 * from its first number again; nodes with another reset or format write strings the others may also write. So a node
 * refuses to draw from a period's key recorded with other settings than its own.
 *
 * @param reset how often the numbers start again
 * @param zone whose midnight starts a day
 * @param format the pattern of a {@link PeriodicFormat}, or {@value #CUSTOM} for another formatter
 */
record PeriodicKeyRecord(ResetPeriod reset, ZoneId zone, String format) {

	/** The format recorded for a formatter that is not a {@link PeriodicFormat}. */
	static final String CUSTOM = "custom";

	private static final Pattern DESCRIPTION = Pattern
		.compile("(daily|monthly|yearly) period \\d+ of periodic key \\S+ \\(zone (\\S+), format (.*)\\)");

	PeriodicKeyRecord {
		Objects.requireNonNull(reset, "reset");
		Objects.requireNonNull(zone, "zone");
		Objects.requireNonNull(format, "format");
	}

	/**
	 * Returns the record of a declared key on a node.
	 * @param key the declared key
	 * @param zone the node's zone
	 * @return the record
	 */
	static PeriodicKeyRecord of(PeriodicKey key, ZoneId zone) {
		// A formatter of the application's own has no name that is the same in every process (a lambda's class
		// name is not): it is recorded as custom, and only its reset and zone are compared.
		String format = (key.formatter() instanceof PeriodicFormat pattern) ? pattern.toString() : CUSTOM;
		return new PeriodicKeyRecord(key.reset(), zone, format);
	}

	/**
	 * Returns the description a period's segment key is created with.
	 * @param name the declared key
	 * @param stamp the period's stamp
	 * @return e.g.
	 * {@code daily period 20261126 of periodic key invoice (zone Asia/Shanghai, format INV-{yyyyMMdd}-{seq:6})}
	 */
	String description(String name, String stamp) {
		return this.reset.name().toLowerCase(Locale.ROOT) + " period " + stamp + " of periodic key " + name
				+ " (zone " + this.zone.getId() + ", format " + this.format + ")";
	}

	/**
	 * Reads a description back.
	 * @param description a segment key's description
	 * @return the record, or {@code null} if the description is not one a node wrote (a key made by another tool, or
	 * by a version that did not record its settings)
	 */
	static @Nullable PeriodicKeyRecord parse(String description) {
		Matcher matcher = DESCRIPTION.matcher(description);
		if (!matcher.matches()) {
			return null;
		}
		try {
			return new PeriodicKeyRecord(ResetPeriod.valueOf(matcher.group(1).toUpperCase(Locale.ROOT)),
					ZoneId.of(matcher.group(2)), matcher.group(3));
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Refuses a period's key recorded with other settings than this node's.
	 * @param segmentKey the period's segment key
	 * @param description its description in the store, or {@code null} if it has none
	 * @throws PeriodicKeyMismatchException if the recorded reset, zone or format differs from this node's
	 */
	void check(String segmentKey, @Nullable String description) {
		PeriodicKeyRecord recorded = (description != null) ? parse(description) : null;
		if (recorded == null || recorded.equals(this)) {
			return;
		}
		if (!recorded.zone.equals(this.zone)) {
			throw new PeriodicKeyMismatchException(segmentKey, "zone", recorded.zone.getId(), this.zone.getId(),
					"set id-worker.segment.periodic-zone (the zone given to PeriodicNumbers) to "
							+ recorded.zone.getId() + " on this node, or to one zone on every node");
		}
		String property = "id-worker.segment.periodic-keys." + segmentKey.substring(0, segmentKey.indexOf(':'));
		if (recorded.reset != this.reset) {
			throw new PeriodicKeyMismatchException(segmentKey, "reset", recorded.reset.name(), this.reset.name(),
					"declare " + property + ".reset as every other node does");
		}
		throw new PeriodicKeyMismatchException(segmentKey, "format", recorded.format, this.format,
				"declare " + property + ".format as every other node does");
	}

}
