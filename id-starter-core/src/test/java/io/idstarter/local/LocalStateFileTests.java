package io.idstarter.local;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.idstarter.local.LocalStateFile.CorruptLineException;
import io.idstarter.local.LocalStateFile.StoreLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LocalStateFileTests {

	@TempDir
	Path directory;

	@Test
	void entriesAndEncodedKeysSurviveARoundTrip() throws IOException {
		Path file = this.directory.resolve("state/marks");
		Map<String, Long> written = new LinkedHashMap<>();
		written.put(LocalStateFile.encodeKey("orders"), 42L);
		written.put(LocalStateFile.encodeKey("a=b #c/é\nd"), Long.MAX_VALUE);
		written.put(LocalStateFile.encodeKey("neg"), -7L);
		LocalStateFile.write(file, "what this file is", written);
		assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).first().isEqualTo("# what this file is");
		Map<String, Long> read = readAll(file);
		assertThat(read).containsExactlyEntriesOf(written);
		assertThat(read.keySet().stream().map(LocalStateFile::decodeKey)).containsExactly("orders", "a=b #c/é\nd",
				"neg");
	}

	@Test
	void blankAndCommentLinesAreSkippedAndTheKeyEndsAtTheLastEquals() throws IOException {
		Path file = this.directory.resolve("marks");
		Files.writeString(file, "# header\n\n   \n  # indented comment\n  a=1  \r\nb=c=2\n", StandardCharsets.UTF_8);
		assertThat(readAll(file)).containsExactly(Map.entry("a", 1L), Map.entry("b=c", 2L));
	}

	@Test
	void storeLinesNameAStorePerScopeAndAnUnknownStoreMatchesAny() throws IOException {
		Path file = this.directory.resolve("marks");
		Map<String, Long> entries = new LinkedHashMap<>();
		entries.put(LocalStateFile.encodeKey("orders/eu"), 7L);
		StoreLine.record(entries, "orders/eu", "JDBC lease store at jdbc:postgresql://prod/app, table t");
		StoreLine.record(entries, "", "Redis at 127.0.0.1:6379, key prefix a/b:");
		StoreLine.record(entries, "orders/eu", "JDBC lease store at jdbc:postgresql://staging/app, table t");
		LocalStateFile.write(file, "test", entries);
		assertThat(Files.readString(file)).contains("@store:orders%2Feu/JDBC+lease+store+at+jdbc%3Apostgresql%3A%2F%2Fstaging")
			.contains("@store:Redis+at+127.0.0.1%3A6379%2C+key+prefix+a%2Fb%3A=0")
			.doesNotContain("prod");
		Map<String, Long> read = readAll(file);
		assertThat(StoreLine.recorded(read, "orders/eu"))
			.isEqualTo("JDBC lease store at jdbc:postgresql://staging/app, table t");
		assertThat(StoreLine.recorded(read, "")).isEqualTo("Redis at 127.0.0.1:6379, key prefix a/b:");
		assertThat(StoreLine.recorded(read, "invoices")).isEmpty();
		assertThat(StoreLine.parse(LocalStateFile.encodeKey("@store:x"))).as("an entry's key").isNull();
		assertThat(StoreLine.differ("a", "b")).isTrue();
		assertThat(StoreLine.differ("a", "a")).isFalse();
		assertThat(StoreLine.differ("", "b")).isFalse();
		assertThat(StoreLine.differ("a", "")).isFalse();
	}

	@Test
	void aMissingFileHasNoEntries() throws IOException {
		assertThat(readAll(this.directory.resolve("absent/marks"))).isEmpty();
	}

	@Test
	void aCorruptLineIsReportedWithItsNumber() throws IOException {
		Path file = this.directory.resolve("marks");
		Files.writeString(file, "# header\na=1\n\nb=lots\nc=3\n", StandardCharsets.UTF_8);
		assertThatExceptionOfType(CorruptLineException.class).isThrownBy(() -> readAll(file))
			.satisfies((ex) -> {
				assertThat(ex.file()).isEqualTo(file);
				assertThat(ex.lineNumber()).isEqualTo(4);
				assertThat(ex.line()).isEqualTo("b=lots");
			})
			.withMessageContaining("line 4 of " + file)
			.withCauseInstanceOf(NumberFormatException.class);
		Files.writeString(file, "no separator\n", StandardCharsets.UTF_8);
		assertThatExceptionOfType(CorruptLineException.class).isThrownBy(() -> readAll(file))
			.satisfies((ex) -> assertThat(ex.lineNumber()).isEqualTo(1));
		Files.writeString(file, "=5\n", StandardCharsets.UTF_8);
		assertThatExceptionOfType(CorruptLineException.class).isThrownBy(() -> readAll(file));
	}

	@Test
	void anEntryTheCallerRejectsIsACorruptLine() throws IOException {
		Path file = this.directory.resolve("marks");
		Files.writeString(file, "a=1\nb=-1\n", StandardCharsets.UTF_8);
		assertThatExceptionOfType(CorruptLineException.class).isThrownBy(() -> LocalStateFile.read(file, (key, value) -> {
			if (value < 0) {
				throw new IllegalArgumentException("negative");
			}
		})).satisfies((ex) -> assertThat(ex.lineNumber()).isEqualTo(2)).withMessageContaining("negative");
		Files.writeString(file, "bad%zz=1\n", StandardCharsets.UTF_8);
		assertThatExceptionOfType(CorruptLineException.class)
			.isThrownBy(() -> LocalStateFile.read(file, (key, value) -> LocalStateFile.decodeKey(key)));
	}

	@Test
	void aWriteReplacesTheFileWholeAndLeavesNoTemporaryFile() throws IOException {
		Path file = this.directory.resolve("marks");
		LocalStateFile.write(file, "header", Map.of("a", 1L, "b", 2L));
		LocalStateFile.write(file, "header", Map.of("c", 3L));
		assertThat(readAll(file)).containsExactly(Map.entry("c", 3L));
		try (Stream<Path> files = Files.list(this.directory)) {
			assertThat(files.map((path) -> path.getFileName().toString())).containsExactly("marks");
		}
	}

	@Test
	void aKeyThatCouldNotBeReadBackIsRefusedAndTheOldFileKept() throws IOException {
		Path file = this.directory.resolve("marks");
		LocalStateFile.write(file, "header", Map.of("a", 1L));
		for (String key : List.of("x=y", "#x", "", " x", "x\ny")) {
			assertThatIllegalArgumentException().isThrownBy(() -> LocalStateFile.write(file, "header", Map.of(key, 2L)))
				.withMessageContaining("encodeKey");
		}
		assertThat(readAll(file)).containsExactly(Map.entry("a", 1L));
		try (Stream<Path> files = Files.list(this.directory)) {
			assertThat(files).hasSize(1);
		}
	}

	@Test
	void aWriteKeepsTheModeOwnerAndGroupTheOperatorSet() throws IOException {
		Path file = this.directory.resolve("marks");
		LocalStateFile.write(file, "header", Map.of("a", 1L));
		assertThat(Files.getPosixFilePermissions(file)).as("a new file")
			.isEqualTo(PosixFilePermissions.fromString("rw-------"));
		Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
		UserPrincipalLookupService users = file.getFileSystem().getUserPrincipalLookupService();
		PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
		boolean root = "root".equals(view.getOwner().getName());
		if (root) {
			// As an operator running the node as root would hand the file to the service's user and group.
			view.setOwner(users.lookupPrincipalByName("nobody"));
			view.setGroup(users.lookupPrincipalByGroupName("nogroup"));
		}
		PosixFileAttributes set = view.readAttributes();
		LocalStateFile.write(file, "header", Map.of("a", 2L));
		PosixFileAttributes after = Files.readAttributes(file, PosixFileAttributes.class);
		assertThat(readAll(file)).containsExactly(Map.entry("a", 2L));
		assertThat(after.permissions()).isEqualTo(PosixFilePermissions.fromString("rw-r-----"));
		assertThat(after.owner()).isEqualTo(set.owner());
		assertThat(after.group()).isEqualTo(set.group());
		if (root) {
			assertThat(after.owner().getName()).isEqualTo("nobody");
		}
	}

	private static Map<String, Long> readAll(Path file) throws IOException {
		Map<String, Long> entries = new LinkedHashMap<>();
		LocalStateFile.read(file, entries::put);
		return entries;
	}

}
