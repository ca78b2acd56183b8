package io.idstarter.segment;

import java.time.ZoneId;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * The settings of a periodic key that every node must share, recorded once in the store as the description of the
 * key's settings entry ({@link PeriodicKey#settingsKey()}): the reset, the zone and the format. The first node to
 * start records its own; every other node compares its own with them at start and is refused if they differ. Nodes
 * with another reset draw from other period keys ({@code invoice:20261126} and {@code invoice:202611}), each from the
 * first number, and write the same strings; nodes in zones whose dates differ draw from different periods' keys; one
 * node's retention could delete a period another still draws from; and nodes with another format may write strings
 * the others also write.
 *
 * @param reset how often the numbers start again
 * @param zone whose midnight starts a day
 * @param format the pattern of a {@link PeriodicFormat}, or {@value #CUSTOM} for another formatter
 */
record PeriodicKeyRecord(ResetPeriod reset, ZoneId zone, String format) {

	/** The format recorded for a formatter that is not a {@link PeriodicFormat}. */
	static final String CUSTOM = "custom";

	private static final Pattern DESCRIPTION = Pattern
		.compile("settings of periodic key \\S+: reset (daily|monthly|yearly), zone (\\S+), format (.*)");

	PeriodicKeyRecord {
		Objects.requireNonNull(reset, "reset");
		Objects.requireNonNull(zone, "zone");
		Objects.requireNonNull(format, "format");
	}

	/**
	 * Returns the settings of a declared key on a node.
	 * @param key the declared key
	 * @param zone the node's zone
	 * @return the settings
	 */
	static PeriodicKeyRecord of(PeriodicKey key, ZoneId zone) {
		// A formatter of the application's own has no name that is the same in every process (a lambda's class
		// name is not): it is recorded as custom, and only its reset and zone are compared.
		String format = (key.formatter() instanceof PeriodicFormat pattern) ? pattern.toString() : CUSTOM;
		return new PeriodicKeyRecord(key.reset(), zone, format);
	}

	/**
	 * Returns the description the settings entry is created with.
	 * @param name the declared key
	 * @return e.g. {@code settings of periodic key invoice: reset daily, zone Asia/Shanghai, format
	 * INV-{yyyyMMdd}-{seq:6}}
	 */
	String description(String name) {
		return "settings of periodic key " + name + ": reset " + this.reset.name().toLowerCase(Locale.ROOT) + ", zone "
				+ this.zone.getId() + ", format " + this.format;
	}

	/**
	 * Reads a description back.
	 * @param description the settings entry's description
	 * @return the settings, or {@code null} if the description is not one a node wrote
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
	 * Refuses a node whose settings differ from those recorded in the store.
	 * @param name the declared key
	 * @param description the settings entry's description in the store, or {@code null} if it has none
	 * @throws PeriodicKeyMismatchException if the recorded reset, zone or format differs from this node's, or the
	 * entry holds no settings a node wrote
	 */
	void check(String name, @Nullable String description) {
		String settingsKey = PeriodicKey.settingsKey(name);
		PeriodicKeyRecord recorded = (description != null) ? parse(description) : null;
		String property = "id-worker.segment.periodic-keys." + name;
		if (recorded == null) {
			String found = (description != null) ? "'" + description + "'" : "gone";
			throw new PeriodicKeyMismatchException("Segment key '" + settingsKey + "' holds no settings of periodic "
					+ "key '" + name + "' (its description is " + found + "), so this node cannot tell whether the other nodes decide periods and write numbers as it "
					+ "does, and draws no number of the key: rename or delete that segment key if it is not one "
					+ "id-starter created, or declare the periodic key under another name than " + property);
		}
		if (!sameZone(recorded.zone, this.zone)) {
			throw mismatch(name, "zone", recorded.zone.getId(), this.zone.getId(),
					"set id-worker.segment.periodic-zone (the zone given to PeriodicNumbers) to "
							+ recorded.zone.getId() + " on this node, as on the others");
		}
		if (recorded.reset != this.reset) {
			throw mismatch(name, "reset", recorded.reset.name(), this.reset.name(),
					"declare " + property + ".reset as every other node does");
		}
		if (!recorded.format.equals(this.format)) {
			throw mismatch(name, "format", recorded.format, this.format,
					"declare " + property + ".format as every other node does");
		}
	}

	private static PeriodicKeyMismatchException mismatch(String name, String setting, String recorded, String own,
			String advice) {
		return new PeriodicKeyMismatchException("Periodic key '" + name + "' is recorded in the store (segment key '"
				+ PeriodicKey.settingsKey(name) + "') with " + setting + " " + recorded + ", and this node has "
				+ setting + " " + own + "; nodes that disagree on it can repeat numbers, so this node draws none: "
				+ advice + " (to change it on every node, stop them all first: see docs/periodic-numbers.md)");
	}

	/**
	 * Returns whether two zones start every day at the same instant: the same ID once normalised ({@code UTC},
	 * {@code Etc/UTC}, {@code GMT} and {@code Z} are one fixed offset), or the same rules (a link of the tz database,
	 * such as {@code PRC} for {@code Asia/Shanghai}). Two nodes whose JDKs ship tz databases of different versions
	 * agree on one region ID even where its rules differ between the versions.
	 */
	private static boolean sameZone(ZoneId recorded, ZoneId own) {
		return recorded.normalized().equals(own.normalized()) || recorded.getRules().equals(own.getRules());
	}

}
