package io.idstarter.segment;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RangeReceiptsTests {

	@Test
	void aReceiptIsTakenOnceAndOnlyWhenAccepted() {
		RangeReceipts<String> receipts = new RangeReceipts<>(4, 10);
		receipts.put("order", 110, "server-a");
		assertThat(receipts.take("order", 110, "server-b"::equals)).isNull();
		assertThat(receipts.take("order", 120)).as("another end").isNull();
		assertThat(receipts.take("order", 110)).isEqualTo("server-a");
		assertThat(receipts.take("order", 110)).as("taken already").isNull();
	}

	@Test
	void onlyTheLatestReceiptsOfAKeyAndOfTheKeysUsedLastAreKept() {
		RangeReceipts<Integer> receipts = new RangeReceipts<>(2, 2);
		receipts.put("a", 10, 1);
		receipts.put("a", 20, 2);
		receipts.put("a", 30, 3);
		assertThat(receipts.take("a", 10)).as("pushed out by two later ranges").isNull();
		receipts.put("b", 10, 4);
		receipts.take("a", 20);
		receipts.put("c", 10, 5);
		assertThat(receipts.take("b", 10)).as("the key used longest ago").isNull();
		assertThat(receipts.take("a", 30)).isEqualTo(3);
		assertThat(receipts.take("c", 10)).isEqualTo(5);
	}

}
