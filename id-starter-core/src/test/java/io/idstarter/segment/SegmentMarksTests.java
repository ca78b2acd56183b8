package io.idstarter.segment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Marks files shared by several {@link SegmentMarks} (of one JVM here; of several processes in
 * {@code SharedStateFilesProcessesTests}), and a file that cannot be written.
 */
class SegmentMarksTests {

	@TempDir
	Path directory;

	@Test
	void aSharedFileKeepsEveryonesHighestMarkButEachGuardOnlyItsOwn() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		SegmentMarks first = SegmentMarks.file(file);
		SegmentMarks second = SegmentMarks.file(file);
		first.raise("order", 3000);
		// A write for another key reads the file, where the first raised "order" past what the second was given.
		second.raise("invoice", 10);
		assertThat(second.highMark("order")).as("the second was never given a range of 'order'").isZero();
		second.raise("order", 2000);
		assertThat(second.highMark("order")).isEqualTo(2000);
		assertThat(first.highMark("invoice")).isZero();
		assertThat(Files.readString(file)).contains("order=3000").contains("invoice=10");
		assertThat(SegmentMarks.file(file).all()).as("a process that starts later guards with the file")
			.containsEntry("order", 3000L)
			.containsEntry("invoice", 10L);
	}

	@Test
	void aForgottenKeyLeavesTheFileAndTheGuardButTheOtherKeysStay() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		SegmentMarks marks = SegmentMarks.file(file);
		marks.raise("invoice:20261126", 200);
		marks.raise("order", 3000);

		marks.forget("invoice:20261126");

		assertThat(marks.highMark("invoice:20261126")).isZero();
		assertThat(marks.all()).containsOnlyKeys("order");
		assertThat(Files.readString(file)).doesNotContain("invoice").contains("order=3000");
		assertThat(SegmentMarks.file(file).all()).containsOnlyKeys("order");
		SegmentMarks inMemory = SegmentMarks.inMemory();
		inMemory.raise("invoice:20261126", 200);
		inMemory.forget("invoice:20261126");
		assertThat(inMemory.all()).isEmpty();
	}

	@Test
	void twoMarksOnOneFileRaiseConcurrentlyWithoutALockConflict() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		List<SegmentMarks> marks = List.of(SegmentMarks.file(file), SegmentMarks.file(file));
		int raises = 100;
		CountDownLatch start = new CountDownLatch(1);
		AtomicReference<Throwable> failure = new AtomicReference<>();
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < marks.size(); i++) {
			SegmentMarks own = marks.get(i);
			String key = "key" + i;
			Thread thread = new Thread(() -> {
				try {
					start.await();
					for (int end = 1; end <= raises; end++) {
						own.raise(key, end);
					}
				}
				catch (Throwable ex) {
					failure.compareAndSet(null, ex);
				}
			});
			thread.start();
			threads.add(thread);
		}
		start.countDown();
		for (Thread thread : threads) {
			thread.join();
		}
		assertThat(failure.get()).as("failure of a raise").isNull();
		assertThat(SegmentMarks.file(file).all()).containsEntry("key0", (long) raises)
			.containsEntry("key1", (long) raises);
	}

	@Test
	void aFileRecordsItsStoreAndAnotherStoreIsRefusedNamingBoth() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		SegmentMarks production = SegmentMarks.file(file);
		production.bindStore("JDBC segment store at jdbc:postgresql://prod/app, table leaf_alloc");
		production.raise("order", 3000);
		assertThat(Files.readString(file)).contains("@store:JDBC+segment+store+at+jdbc%3Apostgresql%3A%2F%2Fprod")
			.contains("order=3000");
		SegmentMarks restarted = SegmentMarks.file(file);
		assertThat(restarted.all()).as("the store line is no key").containsOnlyKeys("order");
		restarted.bindStore("JDBC segment store at jdbc:postgresql://prod/app, table leaf_alloc");
		SegmentMarks staging = SegmentMarks.file(file);
		assertThatExceptionOfType(SegmentMarksException.class)
			.isThrownBy(() -> staging.bindStore("JDBC segment store at jdbc:postgresql://staging/app, table leaf_alloc"))
			.satisfies((ex) -> assertThat(ex.file()).isEqualTo(file))
			.withMessageContaining("holds the marks of JDBC segment store at jdbc:postgresql://prod/app")
			.withMessageContaining("this node uses JDBC segment store at jdbc:postgresql://staging/app")
			.withMessageContaining("id-worker.segment.marks-file");
	}

	@Test
	void aFileWithoutAStoreIsTakenAsThisStores() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		Files.writeString(file, "# written before marks files named their store\norder=500\n");
		SegmentMarks marks = SegmentMarks.file(file);
		marks.bindStore("Redis segment store at Redis at 127.0.0.1:6379, key prefix id-starter:");
		assertThat(marks.highMark("order")).isEqualTo(500);
		marks.raise("invoice", 7);
		assertThat(Files.readString(file)).contains("@store:Redis").contains("order=500").contains("invoice=7");
	}

	@Test
	void aStoreThatCannotSayWhatItIsChecksNothing() throws Exception {
		Path file = this.directory.resolve("segment-marks");
		SegmentMarks marks = SegmentMarks.file(file);
		marks.bindStore("Redis segment store at Redis at 127.0.0.1:6379, key prefix id-starter:");
		marks.raise("order", 500);
		SegmentMarks reopened = SegmentMarks.file(file);
		assertThatNoException().isThrownBy(() -> reopened.bindStore(""));
		assertThat(reopened.highMark("order")).isEqualTo(500);
	}

	@Test
	void aFileThatCannotBeWrittenIsReportedUntilAWriteSucceeds() throws Exception {
		// A file where the directory should be: no user, not even root, can create the marks file under it.
		Path blocker = this.directory.resolve("state");
		Path file = blocker.resolve("segment-marks");
		SegmentMarks marks = SegmentMarks.file(file);
		Files.writeString(blocker, "not a directory");
		assertThatExceptionOfType(SegmentMarksException.class).isThrownBy(() -> marks.raise("order", 100))
			.satisfies((ex) -> assertThat(ex.file()).isEqualTo(file))
			.withMessageStartingWith("Cannot write the segment marks file " + file)
			.withMessageContaining("the segment store is not at fault");
		assertThat(marks.highMark("order")).as("not raised").isZero();
		assertThat(marks.writeFailure()).get().satisfies((ex) -> assertThat(ex.file()).isEqualTo(file));
		Files.delete(blocker);
		marks.raise("order", 100);
		assertThat(marks.highMark("order")).isEqualTo(100);
		assertThat(marks.writeFailure()).isEmpty();
	}

}
