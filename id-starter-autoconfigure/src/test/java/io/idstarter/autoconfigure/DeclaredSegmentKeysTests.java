package io.idstarter.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentMarks;
import io.idstarter.segment.SegmentMarksException;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.UnknownKeyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Declarative segment keys ({@code id-worker.segment.keys}) and this node's high marks in a real application context.
 */
@ExtendWith(OutputCaptureExtension.class)
class DeclaredSegmentKeysTests {

	private final InMemorySegmentStore store = new InMemorySegmentStore();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(SegmentIdWorkerConfigurationTests.SegmentMode.class)
		.withBean(SegmentStore.class, () -> this.store);

	@TempDir
	Path directory;

	DeclaredSegmentKeysTests() {
		this.store.createKey("orders", 1000, 100, "orders");
	}

	@Test
	void declaredKeyIsCreatedAtStartAndServesAtOnce() {
		this.contextRunner
			.withPropertyValues("id-worker.segment.keys.invoice.first-id=500", "id-worker.segment.keys.invoice.step=20",
					"id-worker.segment.keys.invoice.description=invoices", "id-worker.segment.keys.user.first-id=7")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				SegmentIdGenerator generator = context.getBean(SegmentIdGenerator.class);
				assertThat(generator.keys()).containsExactlyInAnyOrder("orders", "invoice", "user");
				assertThat(generator.nextId("invoice")).isEqualTo(500);
				assertThat(generator.nextId("user")).isEqualTo(7);
				SegmentAllocation next = this.store.allocate("invoice");
				assertThat(next.configuredStep()).isEqualTo(20);
				SegmentAllocation user = this.store.allocate("user");
				assertThat(user.configuredStep()).as("default step").isEqualTo(1000);
			});
	}

	@Test
	void declaredKeyThatExistsIsLeftUnchanged() {
		this.contextRunner
			.withPropertyValues("id-worker.segment.keys.orders.first-id=1", "id-worker.segment.keys.orders.step=5")
			.run((context) -> {
				assertThat(context.getBean(SegmentIdGenerator.class).nextId("orders")).isEqualTo(1000);
				assertThat(this.store.allocate("orders").configuredStep()).isEqualTo(100);
			});
	}

	@Test
	void declaredKeysThatExistCostOneReadOfTheKeyListAndNoWrite() {
		InMemorySegmentStore counted = new InMemorySegmentStore();
		Map<String, IdWorkerProperties.Key> declared = new LinkedHashMap<>();
		for (int i = 0; i < 50; i++) {
			counted.createKey("key-" + i, 1, 10, "");
			declared.put("key-" + i, new IdWorkerProperties.Key());
		}
		declared.put("new-key", new IdWorkerProperties.Key());
		List<String> writes = new ArrayList<>();
		SegmentStore store = new CountingAdmin(counted, writes);
		assertThat(DeclaredSegmentKeys.create(store, declared, SegmentMarks.inMemory()).created())
			.containsExactly("new-key");
		assertThat(counted.keysCalls()).isOne();
		assertThat(writes).containsExactly("new-key");
	}

	/** A store that records the keys it is asked to create. */
	private record CountingAdmin(InMemorySegmentStore store, List<String> writes) implements SegmentStore, SegmentKeyAdmin {

		@Override
		public SegmentAllocation allocate(String key) {
			return this.store.allocate(key);
		}

		@Override
		public SegmentAllocation allocate(String key, int step) {
			return this.store.allocate(key, step);
		}

		@Override
		public Set<String> keys() {
			return this.store.keys();
		}

		@Override
		public boolean createKey(String key, long firstId, int step, String description) {
			this.writes.add(key);
			return this.store.createKey(key, firstId, step, description);
		}

		@Override
		public void updateStep(String key, int step) {
			this.store.updateStep(key, step);
		}

	}

	@Test
	void keyThisNodeWasGivenNumbersOfIsNotCreatedBelowItsMark() throws Exception {
		Path marks = this.directory.resolve("segment-marks");
		Files.writeString(marks, "invoice=700\n");
		this.contextRunner
			.withPropertyValues("id-worker.segment.marks-file=" + marks, "id-worker.segment.keys.invoice.first-id=1")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				SegmentIdGenerator generator = context.getBean(SegmentIdGenerator.class);
				assertThat(this.store.maxId("invoice")).isEmpty();
				assertThat(generator.missingKeys()).containsEntry("invoice", 700L);
				assertThat(generator.nextIds("orders", 1)).containsExactly(1000);
				try {
					generator.nextId("invoice");
					throw new AssertionError("a lost key was served");
				}
				catch (UnknownKeyException ex) {
					assertThat(ex).hasMessageContaining("up to 700").hasMessageContaining(
							"id-worker.segment.keys.invoice.first-id=700");
				}
			});
		this.contextRunner
			.withPropertyValues("id-worker.segment.marks-file=" + marks, "id-worker.segment.keys.invoice.first-id=700")
			.run((context) -> {
				SegmentIdGenerator generator = context.getBean(SegmentIdGenerator.class);
				assertThat(generator.missingKeys()).isEmpty();
				assertThat(generator.nextId("invoice")).isEqualTo(700);
			});
	}

	@Test
	void marksFileDefaultsToTheDirectoryOfTheLeaseCacheFile() {
		Path cacheFile = this.directory.resolve("worker-id");
		this.contextRunner.withPropertyValues("id-worker.lease.cache-file=" + cacheFile).run((context) -> {
			SegmentMarks marks = context.getBean(SegmentMarks.class);
			assertThat(marks.file()).contains(this.directory.toAbsolutePath().resolve("segment-marks"));
			context.getBean(SegmentIdGenerator.class).nextId("orders");
			assertThat(Files.readString(marks.file().orElseThrow())).contains("orders=1100");
		});
	}

	@Test
	void marksAreInMemoryWithoutAFile(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			assertThat(context.getBean(SegmentMarks.class).file()).isEmpty();
			assertThat(context.getBean(SegmentIdGenerator.class).marks()).isSameAs(context.getBean(SegmentMarks.class));
		});
		assertThat(output).contains("Segment marks are kept in memory only")
			.contains("id-worker.segment.marks-file");
	}

	@Test
	void corruptMarksFileFailsTheStartWithAnAnalysisThatSaysHowToRepairIt() throws Exception {
		Path marks = this.directory.resolve("segment-marks");
		Files.writeString(marks, "order=lots\n");
		this.contextRunner.withPropertyValues("id-worker.segment.marks-file=" + marks).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			FailureAnalysis analysis = new SegmentMarksFailureAnalyzer().analyze(failure);
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains(marks.toString()).contains("line 1");
			assertThat(analysis.getAction()).contains("id-worker.segment.marks-file").contains("key=mark");
		});
	}

	@Test
	void marksFileOfAnotherStoreIsExplainedWithTheSettingToChange() {
		Path marks = this.directory.resolve("segment-marks");
		SegmentMarks production = SegmentMarks.file(marks);
		production.bindStore("store of production");
		production.raise("order", 100);
		SegmentMarksException failure = catchThrowableOfType(SegmentMarksException.class,
				() -> SegmentMarks.file(marks).bindStore("store of staging"));
		assertThat(failure.reason()).isEqualTo(SegmentMarksException.Reason.OTHER_STORE);
		FailureAnalysis analysis = new SegmentMarksFailureAnalyzer().analyze(failure);
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).contains(marks.toString())
			.contains("store of production")
			.contains("store of staging");
		assertThat(analysis.getAction()).contains("id-worker.segment.marks-file").contains("@store:");
	}

	@Test
	void defaultKeyMissingFromTheStoreIsWarnedAtStart(CapturedOutput output) {
		this.contextRunner.withPropertyValues("id-worker.segment.default-key=order").run((context) -> {
			assertThat(context).hasNotFailed();
		});
		assertThat(output).contains("The default segment key 'order' is not in the store")
			.contains("id-worker.segment.keys.order.first-id");
	}

	@Test
	void negativeFirstIdFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("id-worker.segment.keys.invoice.first-id=-1").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("id-worker.segment.keys.invoice.first-id")
				.hasMessageContaining("must be in [0, Long.MAX_VALUE - step");
		});
	}

	@Test
	void stepBelowOneFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("id-worker.segment.keys.invoice.step=0").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("id-worker.segment.keys.invoice.step");
		});
	}

	@Test
	void descriptionTooLongFailsNamingTheProperty() {
		this.contextRunner.withPropertyValues("id-worker.segment.keys.invoice.description=" + "x".repeat(257))
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("id-worker.segment.keys.invoice.description"));
	}

	@Test
	void keyTheStoreRefusesFailsNamingTheProperty() {
		SegmentStore refusing = new RefusingStore(this.store);
		new ApplicationContextRunner().withUserConfiguration(SegmentIdWorkerConfigurationTests.SegmentMode.class)
			.withBean(SegmentStore.class, () -> refusing)
			.withPropertyValues("id-worker.segment.keys.bad.first-id=1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("id-worker.segment.keys.bad")
				.hasMessageContaining("no keys called bad"));
	}

	@Test
	void storeThatCannotCreateKeysFailsNamingTheProperty() {
		SegmentStore readOnly = new ReadOnlyStore(this.store);
		new ApplicationContextRunner().withUserConfiguration(SegmentIdWorkerConfigurationTests.SegmentMode.class)
			.withBean(SegmentStore.class, () -> readOnly)
			.withPropertyValues("id-worker.segment.keys.invoice.first-id=1")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("id-worker.segment.keys.invoice")
				.hasMessageContaining("SegmentKeyAdmin"));
	}

	/** A store without key administration. */
	private static class ReadOnlyStore implements SegmentStore {

		private final SegmentStore delegate;

		ReadOnlyStore(SegmentStore delegate) {
			this.delegate = delegate;
		}

		@Override
		public SegmentAllocation allocate(String key) {
			return this.delegate.allocate(key);
		}

		@Override
		public SegmentAllocation allocate(String key, int step) {
			return this.delegate.allocate(key, step);
		}

		@Override
		public Set<String> keys() {
			return this.delegate.keys();
		}

	}

	/** A store that refuses the key name {@code bad}. */
	private static final class RefusingStore extends ReadOnlyStore implements io.idstarter.segment.SegmentKeyAdmin {

		RefusingStore(SegmentStore delegate) {
			super(delegate);
		}

		@Override
		public boolean createKey(String key, long firstId, int step, String description) {
			throw new IllegalArgumentException("no keys called " + key);
		}

		@Override
		public void updateStep(String key, int step) {
		}

	}

}
