package io.idstarter.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.idstarter.autoconfigure.IdWorkerMode;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lists of modes in the README and docs come from {@link IdWorkerMode}: a mode table names every mode, and a list of
 * Snowflake modes in running text names all of them, so that a mode added to the enum cannot be left out of the docs.
 */
class DocsModeListsTests {

	private static final Set<String> ALL = Arrays.stream(IdWorkerMode.values())
		.map(Enum::name)
		.collect(Collectors.toCollection(LinkedHashSet::new));

	private static final Set<String> SNOWFLAKE = Arrays.stream(IdWorkerMode.values())
		.filter(IdWorkerMode::isSnowflake)
		.map(Enum::name)
		.collect(Collectors.toCollection(LinkedHashSet::new));

	private static final String MODE = "`?(" + String.join("|", ALL) + ")`?";

	/** Three or more mode names in a row, separated by commas, "or" or "and". */
	private static final Pattern LIST = Pattern.compile(MODE + "(?:(?:,| or| and|, or|, and)\\s+" + MODE + "){2,}");

	/** A table row whose first cell is a mode. */
	private static final Pattern TABLE_ROW = Pattern.compile("^\\| `(" + String.join("|", ALL) + ")` \\|");

	@Test
	void everyModeTableHasARowPerMode() throws IOException {
		List<String> problems = new ArrayList<>();
		int tables = 0;
		for (Path file : DocsSnippetsTests.markdownFiles()) {
			Set<String> rows = new LinkedHashSet<>();
			for (String line : Files.readAllLines(file)) {
				Matcher row = TABLE_ROW.matcher(line);
				if (row.find()) {
					rows.add(row.group(1));
				}
			}
			if (rows.size() >= 3) {
				tables++;
				if (!rows.equals(ALL)) {
					problems.add(DocsSnippetsTests.ROOT.relativize(file) + ": the mode table has " + rows
							+ ", the modes are " + ALL);
				}
			}
		}
		assertThat(tables).as("mode tables found (README, spring-boot.md)").isGreaterThanOrEqualTo(2);
		assertThat(problems).isEmpty();
	}

	@Test
	void everyListOfSnowflakeModesNamesThemAll() throws IOException {
		List<String> problems = new ArrayList<>();
		int lists = 0;
		for (Path file : DocsSnippetsTests.markdownFiles()) {
			List<String> lines = Files.readAllLines(file);
			for (int i = 0; i < lines.size(); i++) {
				// joined with the next line: a list may wrap
				String text = lines.get(i) + ((i + 1 < lines.size()) ? " " + lines.get(i + 1) : "");
				Matcher list = LIST.matcher(text);
				while (list.find()) {
					if (list.start() >= lines.get(i).length()) {
						break;
					}
					Set<String> named = new LinkedHashSet<>();
					Matcher mode = Pattern.compile(MODE).matcher(list.group());
					while (mode.find()) {
						named.add(mode.group(1));
					}
					named.remove("SEGMENT");
					lists++;
					if (!named.containsAll(SNOWFLAKE)) {
						problems.add(DocsSnippetsTests.ROOT.relativize(file) + ":" + (i + 1) + ": '" + list.group()
								+ "' leaves out Snowflake modes; they are " + SNOWFLAKE);
					}
				}
			}
		}
		assertThat(lists).as("mode lists found").isGreaterThanOrEqualTo(2);
		assertThat(problems).isEmpty();
	}

}
