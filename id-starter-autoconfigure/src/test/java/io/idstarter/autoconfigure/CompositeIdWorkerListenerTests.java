package io.idstarter.autoconfigure;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.idstarter.IdWorkerListener;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;

import static org.assertj.core.api.Assertions.assertThat;

class CompositeIdWorkerListenerTests {

	@Test
	void everyEventOfTheListenerInterfaceIsPassedOn() {
		List<String> overridden = Arrays.stream(CompositeIdWorkerListener.class.getDeclaredMethods())
			.map(Method::getName)
			.toList();
		assertThat(Arrays.stream(IdWorkerListener.class.getMethods()).filter(Method::isDefault).map(Method::getName))
			.allSatisfy((event) -> assertThat(overridden).as("events CompositeIdWorkerListener passes on")
				.contains(event));
	}

	@Test
	void eachEventReachesEveryListenerEvenAfterOneThrows() {
		List<String> events = new ArrayList<>();
		IdWorkerListener throwing = new IdWorkerListener() {

			@Override
			public void segmentRefused(String key, long knownMark, long storeStart) {
				throw new IllegalStateException("broken listener");
			}

		};
		IdWorkerListener recording = new IdWorkerListener() {

			@Override
			public void storeCall(String key, String operation, long nanos, boolean success) {
				events.add("storeCall " + key);
			}

			@Override
			public void segmentWait(String key, long nanos, boolean served) {
				events.add("segmentWait " + key);
			}

			@Override
			public void segmentRefused(String key, long knownMark, long storeStart) {
				events.add("segmentRefused " + key + " " + knownMark + " " + storeStart);
			}

			@Override
			public void segmentKeyRetired(String key) {
				events.add("segmentKeyRetired " + key);
			}

			@Override
			public void clockMovedBackwards(long offsetMillis, String action) {
				events.add("clockMovedBackwards " + offsetMillis);
			}

		};
		DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
		beans.registerSingleton("throwing", throwing);
		beans.registerSingleton("recording", recording);
		IdWorkerListener composite = CompositeIdWorkerListener.of(beans.getBeanProvider(IdWorkerListener.class));
		composite.storeCall("order", "allocate", 1, true);
		composite.segmentWait("order", 1, true);
		composite.segmentRefused("order", 5000, 1);
		composite.segmentKeyRetired("invoice:20261126");
		composite.clockMovedBackwards(7, "failed");
		assertThat(events).containsExactly("storeCall order", "segmentWait order", "segmentRefused order 5000 1",
				"segmentKeyRetired invoice:20261126", "clockMovedBackwards 7");
	}

}
