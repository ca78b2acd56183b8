package io.idstarter.lease;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class WorkerSlotMarksTests {

	@TempDir
	Path directory;

	@Test
	void marksOnlyRiseUnlessLoweredByARelease() {
		WorkerSlotMarks marks = WorkerSlotMarks.besideCacheFile(this.directory.resolve("worker-id"));
		assertThat(marks.file()).isEqualTo(this.directory.resolve("id-worker-slot-marks").toAbsolutePath());
		assertThat(marks.known("orders", 3)).isEqualTo(-1);
		marks.raise("orders", 3, 2000);
		marks.raise("orders", 3, 1500);
		marks.raise("orders/eu", 3, 700);
		assertThat(marks.known("orders", 3)).isEqualTo(2000);
		assertThat(marks.known("orders/eu", 3)).isEqualTo(700);
		assertThat(marks.known("orders", 4)).isEqualTo(-1);
		marks.lowerTo("orders", 3, 1200);
		assertThat(marks.known("orders", 3)).isEqualTo(1200);
	}

	@Test
	void marksSurviveARestart() {
		Path cacheFile = this.directory.resolve("state/worker-id");
		WorkerSlotMarks.besideCacheFile(cacheFile).raise("orders", 0, 42);
		assertThat(WorkerSlotMarks.besideCacheFile(cacheFile).known("orders", 0)).isEqualTo(42);
	}

	@Test
	void aCorruptFileIsAnErrorNamingTheLineNeverAnEmptyRecord() throws Exception {
		WorkerSlotMarks marks = WorkerSlotMarks.besideCacheFile(this.directory.resolve("worker-id"));
		marks.raise("orders", 0, 42);
		Files.writeString(marks.file(), "# header\norders/0=42\norders/1=not-a-number\n");
		assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(() -> marks.known("orders", 0))
			.withMessage("worker slot marks file " + marks.file() + " is corrupt at line 3 ('orders/1=not-a-number'); "
					+ "fix the line, or delete the file to turn the check off until the next lease");
	}

}
