package io.idstarter.crossprocess;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * One line of a drill's event log: {@code <wall-clock ms> <kind> [name=value ...] [error=free text]}.
 *
 * @param at wall-clock time in milliseconds since the Unix epoch (all processes run on one machine, one clock)
 * @param source the process (or in-process node) that wrote it
 * @param kind what happened, for example {@code lease-borrow-ok}
 * @param fields the named values
 */
record DrillEvent(long at, String source, String kind, Map<String, String> fields) {

	/** The one field whose value runs to the end of the line and may hold spaces. */
	static final String ERROR = "error";

	DrillEvent {
		Objects.requireNonNull(source, "source");
		Objects.requireNonNull(kind, "kind");
		fields = Map.copyOf(fields);
	}

	/**
	 * Reads a line written by an {@link EventLog}.
	 * @param source who wrote it
	 * @param line the line
	 * @return the event
	 * @throws IllegalArgumentException if the line is malformed
	 */
	static DrillEvent parse(String source, String line) {
		String[] head = line.split(" ", 3);
		if (head.length < 2) {
			throw new IllegalArgumentException("malformed event line of " + source + ": '" + line + "'");
		}
		Map<String, String> fields = new LinkedHashMap<>();
		String rest = (head.length == 3) ? head[2] : "";
		while (!rest.isEmpty()) {
			if (rest.startsWith(ERROR + "=")) {
				fields.put(ERROR, rest.substring(ERROR.length() + 1));
				break;
			}
			int space = rest.indexOf(' ');
			String field = (space < 0) ? rest : rest.substring(0, space);
			int equals = field.indexOf('=');
			if (equals <= 0) {
				throw new IllegalArgumentException("malformed field '" + field + "' in event line of " + source
						+ ": '" + line + "'");
			}
			fields.put(field.substring(0, equals), field.substring(equals + 1));
			rest = (space < 0) ? "" : rest.substring(space + 1);
		}
		return new DrillEvent(Long.parseLong(head[0]), source, head[1], fields);
	}

	@Nullable String field(String name) {
		return this.fields.get(name);
	}

	long longField(String name) {
		String value = this.fields.get(name);
		if (value == null) {
			throw new IllegalStateException("event has no field '" + name + "': " + this);
		}
		return Long.parseLong(value);
	}

	int intField(String name) {
		return Math.toIntExact(longField(name));
	}

	@Override
	public String toString() {
		return this.source + "@" + this.at + " " + this.kind + " " + this.fields;
	}

}
