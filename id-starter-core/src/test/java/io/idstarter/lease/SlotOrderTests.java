package io.idstarter.lease;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

import io.idstarter.lease.SlotOrder.Candidate;
import io.idstarter.lease.SlotOrder.UsedSlot;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SlotOrder}: the order of {@link ISequenceManager}'s contract, decided once for every store.
 */
class SlotOrderTests {

	private static final Duration TTL = Duration.ofSeconds(30);

	@Test
	void thePreferredFreeSlotComesFirstThenGapsLowestFirstThenTheSlotFreeForLongest() {
		List<UsedSlot<String>> used = List.of(free(1, 300), UsedSlot.held(2, "2"), free(4, 100), free(5, 100),
				free(6, 200));
		assertThat(workerIds(SlotOrder.candidates(request(7, 6, Set.of()), used))).containsExactly(6, 0, 3, 7, 4, 5,
				1);
	}

	@Test
	void aHeldPreferredSlotIsPassedOverAndAFreeOneIsNotOfferedTwice() {
		List<UsedSlot<String>> used = List.of(UsedSlot.held(0, "0"), free(1, 5));
		assertThat(workerIds(SlotOrder.candidates(request(2, 0, Set.of()), used))).containsExactly(2, 1);
		assertThat(workerIds(SlotOrder.candidates(request(2, 1, Set.of()), used))).containsExactly(1, 2);
		assertThat(workerIds(SlotOrder.candidates(request(2, 2, Set.of()), used))).containsExactly(2, 1);
	}

	@Test
	void excludedSlotsAndSlotsOutsideTheLayoutAreNeverOffered() {
		List<UsedSlot<String>> used = List.of(free(1, 1), free(3, 2), free(9, 0), free(-1, 0));
		assertThat(workerIds(SlotOrder.candidates(request(3, -1, Set.of(0, 1)), used))).containsExactly(2, 3);
		assertThat(workerIds(SlotOrder.candidates(request(3, 2, Set.of(0, 1)), used))).containsExactly(2, 3);
	}

	@Test
	void aPreferredSlotTheStoreChoseIsPassedOverWhenTheRequestExcludesIt() {
		List<UsedSlot<String>> used = List.of(free(1, 1));
		assertThat(workerIds(SlotOrder.candidates(request(1, -1, Set.of(1)), 1, used))).containsExactly(0);
		assertThat(workerIds(SlotOrder.candidates(request(1, -1, Set.of()), 1, used))).containsExactly(1, 0);
	}

	@Test
	void aCandidateCarriesWhatTheStoreReadOrNothingForASlotNeverUsed() {
		Iterator<Candidate<String>> order = SlotOrder.candidates(request(1, -1, Set.of()), List.of(free(1, 0)))
			.iterator();
		assertThat(order.next().used()).isNull();
		assertThat(order.next().used().read()).isEqualTo("1");
		assertThat(order.hasNext()).isFalse();
		assertThat(SlotOrder.first(SlotOrder.candidates(request(0, -1, Set.of()), List.of(UsedSlot.held(0, "0")))))
			.isNull();
	}

	@Test
	void theGapsOfTheWidestLayoutAreProducedAsTheyAreReached() {
		Iterator<Candidate<String>> order = SlotOrder
			.candidates(request(Integer.MAX_VALUE, -1, Set.of()), List.of(UsedSlot.held(0, "0")))
			.iterator();
		assertThat(order.next().workerId()).isEqualTo(1);
		assertThat(order.next().workerId()).isEqualTo(2);
	}

	private static UsedSlot<String> free(int workerId, long freeSince) {
		return new UsedSlot<>(workerId, true, freeSince, Integer.toString(workerId));
	}

	private static LeaseRequest request(int maxWorkerId, int preferred, Set<Integer> excluded) {
		return new LeaseRequest("ns", maxWorkerId, TTL, preferred, "test/1", 0, excluded);
	}

	private static List<Integer> workerIds(Iterable<Candidate<String>> candidates) {
		List<Integer> ids = new ArrayList<>();
		candidates.forEach((candidate) -> ids.add(candidate.workerId()));
		return ids;
	}

}
