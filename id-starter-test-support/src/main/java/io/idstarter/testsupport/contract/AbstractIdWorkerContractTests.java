package io.idstarter.testsupport.contract;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

import io.idstarter.IdWorker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * What every {@link IdWorker} promises its callers, written once: extend this class, return the worker under test
 * from {@link #createIdWorker()}, and a generator (a shipped one, a wrapper of your own, an adapter to another
 * library) is held to the same contract.
 *
 * <p>The contract: every ID is positive; no ID of a key is issued twice, whatever mix of {@code nextId(key)},
 * {@code nextIds(key, count)} and string forms many threads call at once; the IDs one thread gets for a key increase
 * (unless {@link #issuesInOrder()} says the worker hides its order, as an obfuscating wrapper does); a batch holds
 * {@code count} IDs in the order they were issued; a batch of fewer than one ID is refused with an
 * {@link IllegalArgumentException} and the worker goes on issuing. Keys are separate number spaces only where the
 * worker says so: uniqueness is checked per key, and across keys when {@link #keysShareOneNumberSpace()}.
 */
public abstract class AbstractIdWorkerContractTests {

	private IdWorker worker;

	/**
	 * Returns the worker under test, ready to issue every key of {@link #keys()}. Called before each test.
	 * @return the worker
	 * @throws Exception if it cannot be created
	 */
	protected abstract IdWorker createIdWorker() throws Exception;

	/**
	 * Releases the worker after each test; closes it if it is {@link AutoCloseable}.
	 * @param worker the worker {@link #createIdWorker()} returned
	 * @throws Exception if it cannot be closed
	 */
	protected void closeIdWorker(IdWorker worker) throws Exception {
		if (worker instanceof AutoCloseable closeable) {
			closeable.close();
		}
	}

	/**
	 * Returns the keys the tests draw from; each must be issuable by the worker.
	 * @return at least one key, {@code "contract-a"} and {@code "contract-b"} by default
	 */
	protected List<String> keys() {
		return List.of("contract-a", "contract-b");
	}

	/**
	 * Returns whether the IDs one thread gets for a key increase.
	 * @return {@code true} by default; {@code false} for a worker that hides the order of its IDs
	 */
	protected boolean issuesInOrder() {
		return true;
	}

	/**
	 * Returns whether all keys draw from one number space (Snowflake), so that no ID repeats across keys either.
	 * @return {@code true} by default; {@code false} where each key counts on its own (segments)
	 */
	protected boolean keysShareOneNumberSpace() {
		return true;
	}

	/**
	 * Returns whether the string forms are the IDs in decimal.
	 * @return {@code true} by default; {@code false} for a worker that encodes its IDs as text of its own
	 */
	protected boolean stringsAreDecimal() {
		return true;
	}

	/**
	 * Returns how many threads call the worker at once in the concurrent tests.
	 * @return 8 by default
	 */
	protected int threads() {
		return 8;
	}

	/**
	 * Returns how many IDs each thread draws in the concurrent tests.
	 * @return 20,000 by default
	 */
	protected int idsPerThread() {
		return 20_000;
	}

	@BeforeEach
	void createWorker() throws Exception {
		this.worker = createIdWorker();
	}

	@AfterEach
	void closeWorker() throws Exception {
		closeIdWorker(this.worker);
	}

	@Test
	void everyIdIsPositiveAndNoneRepeatsWhenManyThreadsDrawEveryKey() throws Exception {
		List<String> keys = keys();
		// thread t draws from key t % keys, so every key has several threads racing on it
		List<long[]> drawn = ContractSupport.concurrently(threads(), (thread) -> {
			String key = keys.get(thread % keys.size());
			long[] ids = new long[idsPerThread()];
			for (int i = 0; i < ids.length; i++) {
				ids[i] = this.worker.nextId(key);
			}
			return ids;
		});
		for (long[] ids : drawn) {
			assertPositive(ids);
			assertIncreasingIfInOrder(ids);
		}
		assertNoRepeats(drawn, keys);
	}

	@Test
	void batchesSinglesAndStringsRacingOnOneKeyNeverRepeat() throws Exception {
		String key = keys().get(0);
		int batch = 97;
		List<long[]> drawn = ContractSupport.concurrently(threads(), (thread) -> {
			long[] ids = new long[idsPerThread()];
			int filled = 0;
			while (filled < ids.length) {
				switch (thread % 3) {
					case 0 -> ids[filled++] = this.worker.nextId(key);
					case 1 -> {
						long[] part = this.worker.nextIds(key, Math.min(batch, ids.length - filled));
						System.arraycopy(part, 0, ids, filled, part.length);
						filled += part.length;
					}
					default -> ids[filled++] = stringsAreDecimal() ? Long.parseLong(this.worker.nextIdString(key))
							: this.worker.nextId(key);
				}
			}
			return ids;
		});
		for (long[] ids : drawn) {
			assertPositive(ids);
			assertIncreasingIfInOrder(ids);
		}
		assertNoRepeats(drawn, List.of(key));
	}

	@Test
	void aBatchHoldsCountDistinctIdsInIssueOrder() {
		String key = keys().get(0);
		for (int count : new int[] { 1, 2, 1_000, 10_000 }) {
			long[] ids = this.worker.nextIds(key, count);
			assertThat(ids).as("a batch of %d", count).hasSize(count);
			assertPositive(ids);
			assertIncreasingIfInOrder(ids);
			assertThat(Arrays.stream(ids).distinct().count()).as("distinct IDs in a batch of %d", count)
				.isEqualTo(count);
		}
	}

	@Test
	void aBatchOfFewerThanOneIdIsRefusedAndTheWorkerGoesOn() {
		String key = keys().get(0);
		long before = this.worker.nextId(key);
		assertThatIllegalArgumentException().isThrownBy(() -> this.worker.nextIds(key, 0));
		assertThatIllegalArgumentException().isThrownBy(() -> this.worker.nextIds(key, -1));
		long after = this.worker.nextId(key);
		assertThat(after).isPositive().isNotEqualTo(before);
		if (issuesInOrder()) {
			assertThat(after).isGreaterThan(before);
		}
	}

	@Test
	void theDefaultKeyIssuesPositiveIdsThatNeverRepeat() throws Exception {
		List<long[]> drawn = ContractSupport.concurrently(threads(), () -> {
			long[] ids = new long[idsPerThread() / 4];
			for (int i = 0; i < ids.length; i++) {
				ids[i] = this.worker.nextId();
			}
			return ids;
		});
		for (long[] ids : drawn) {
			assertPositive(ids);
			assertIncreasingIfInOrder(ids);
		}
		assertNoRepeats(drawn, List.of("the default key"));
	}

	@Test
	void stringFormsAreDistinctAndNotBlank() {
		String key = keys().get(0);
		Set<String> seen = new HashSet<>();
		for (int i = 0; i < 1_000; i++) {
			String text = (i % 2 == 0) ? this.worker.nextIdString(key) : this.worker.nextIdString();
			assertThat(text).isNotBlank();
			if (stringsAreDecimal()) {
				assertThat(Long.parseLong(text)).isPositive();
			}
			assertThat(seen.add(((i % 2 == 0) ? key : "") + "/" + text)).as("string ID %s issued twice", text)
				.isTrue();
		}
	}

	private void assertPositive(long[] ids) {
		for (long id : ids) {
			assertThat(id).as("every ID is positive").isPositive();
		}
	}

	private void assertIncreasingIfInOrder(long[] ids) {
		if (!issuesInOrder()) {
			return;
		}
		for (int i = 1; i < ids.length; i++) {
			if (ids[i] <= ids[i - 1]) {
				assertThat(ids[i]).as("ID %d of one thread after %d", i, ids[i - 1]).isGreaterThan(ids[i - 1]);
			}
		}
	}

	/**
	 * Asserts that no ID repeats within a key (thread t drew key t % keys), or across all keys when they share one
	 * number space.
	 */
	private void assertNoRepeats(List<long[]> drawn, List<String> keys) {
		int spaces = keysShareOneNumberSpace() ? 1 : keys.size();
		for (int space = 0; space < spaces; space++) {
			int s = space;
			long[] all = IntStream.range(0, drawn.size())
				.filter((thread) -> spaces == 1 || thread % keys.size() == s)
				.mapToObj(drawn::get)
				.flatMapToLong(Arrays::stream)
				.sorted()
				.toArray();
			for (int i = 1; i < all.length; i++) {
				if (all[i] == all[i - 1]) {
					assertThat(all[i]).as("ID issued twice (key %s)", (spaces == 1) ? "any" : keys.get(s))
						.isNotEqualTo(all[i - 1]);
				}
			}
		}
	}

}
