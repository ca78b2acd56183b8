package io.idstarter.lease;

import java.util.Collection;
import java.util.Collections;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import io.idstarter.InvalidSettingException;

/**
 * Worker IDs written as single IDs and inclusive ranges, such as {@code 0-3,7}: the form in which operators name the
 * worker IDs an old fleet still uses ({@link LeaseSettings#excludedWorkerIds()}).
 *
 * @since 0.1.0
 */
public final class WorkerIdRanges {

	/** Most worker IDs one setting may name: a 16-bit worker field's worth, to keep a typo from filling memory. */
	static final int MAX_IDS = 1 << 16;

	private WorkerIdRanges() {
	}

	/**
	 * Reads worker IDs from parts such as {@code "0-3"} and {@code "7"}; each part may itself hold several,
	 * separated by commas.
	 * @param parts the parts, none blank
	 * @return the worker IDs, sorted
	 * @throws InvalidSettingException naming {@code excludedWorkerIds} for a part that is not a non-negative ID or a
	 * range {@code low-high} with {@code low <= high}, or for more than {@value #MAX_IDS} IDs in all
	 */
	public static SortedSet<Integer> parse(Collection<String> parts) {
		SortedSet<Integer> ids = new TreeSet<>();
		for (String part : parts) {
			for (String item : part.split(",", -1)) {
				addItem(ids, item.trim());
			}
		}
		return Collections.unmodifiableSortedSet(ids);
	}

	/**
	 * Checks that the worker IDs fit a layout and leave it at least one slot.
	 * @param ids the worker IDs
	 * @param maxWorkerId the layout's greatest worker ID
	 * @throws InvalidSettingException naming {@code excludedWorkerIds} if one is above {@code maxWorkerId} or all of
	 * {@code [0, maxWorkerId]} are named
	 */
	public static void requireWithin(Set<Integer> ids, int maxWorkerId) {
		for (int id : ids) {
			if (id > maxWorkerId) {
				throw new InvalidSettingException("excludedWorkerIds", "worker ID " + id + " is above the layout's "
						+ "greatest worker ID " + maxWorkerId + "; name only worker IDs in [0, " + maxWorkerId
						+ "], or use a layout with more worker-ID bits");
			}
		}
		if (ids.size() > maxWorkerId) {
			throw new InvalidSettingException("excludedWorkerIds", "excludes all " + (maxWorkerId + 1L)
					+ " worker IDs of the layout, so no node could start; leave at least one out, or use a layout "
					+ "with more worker-ID bits");
		}
	}

	/**
	 * Writes worker IDs back in the short form, such as {@code 0-3,7}.
	 * @param ids the worker IDs
	 * @return the ranges, or the empty string for none
	 */
	public static String format(Set<Integer> ids) {
		StringBuilder text = new StringBuilder();
		Integer low = null;
		int high = -2;
		for (int id : new TreeSet<>(ids)) {
			if (low != null && id == high + 1) {
				high = id;
				continue;
			}
			appendRange(text, low, high);
			low = id;
			high = id;
		}
		appendRange(text, low, high);
		return text.toString();
	}

	private static void appendRange(StringBuilder text, Integer low, int high) {
		if (low == null) {
			return;
		}
		text.append((text.length() > 0) ? "," : "").append(low);
		if (high > low) {
			text.append('-').append(high);
		}
	}

	private static void addItem(Set<Integer> ids, String item) {
		int dash = item.indexOf('-', 1);
		int low = parseId(item, (dash < 0) ? item : item.substring(0, dash));
		int high = (dash < 0) ? low : parseId(item, item.substring(dash + 1));
		if (low > high) {
			throw invalid(item, "the range's low end is above its high end");
		}
		if ((long) high - low + 1 + ids.size() > MAX_IDS) {
			throw invalid(item, "names more than " + MAX_IDS + " worker IDs in all");
		}
		for (int id = low; id <= high; id++) {
			ids.add(id);
		}
	}

	private static int parseId(String item, String text) {
		String digits = text.trim();
		if (digits.isEmpty() || !digits.chars().allMatch(Character::isDigit) || digits.length() > 10) {
			throw invalid(item, "expected a worker ID (0 or more) or a range such as 0-3");
		}
		long id = Long.parseLong(digits);
		if (id > Integer.MAX_VALUE) {
			throw invalid(item, "worker IDs are at most " + Integer.MAX_VALUE);
		}
		return (int) id;
	}

	private static InvalidSettingException invalid(String item, String reason) {
		return new InvalidSettingException("excludedWorkerIds",
				"'" + item + "': " + reason + "; write worker IDs and ranges separated by commas, such as 0-3,7");
	}

}
