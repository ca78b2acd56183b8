package io.idstarter.autoconfigure;

import java.util.List;
import java.util.function.Consumer;

import io.idstarter.IdWorkerListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;

/**
 * Passes each event to every {@link IdWorkerListener} bean, in order. A listener that throws is logged and skipped, so
 * that a broken metrics listener cannot fail an ID request.
 */
final class CompositeIdWorkerListener implements IdWorkerListener {

	private static final Logger logger = LoggerFactory.getLogger(CompositeIdWorkerListener.class);

	private final List<IdWorkerListener> listeners;

	private CompositeIdWorkerListener(List<IdWorkerListener> listeners) {
		this.listeners = listeners;
	}

	/**
	 * Returns one listener for all listener beans. The beans are looked up once, now: a listener bean must not
	 * depend on a generator bean.
	 * @param listeners the listener beans
	 * @return {@link IdWorkerListener#NONE} when there is none, the bean itself when there is one, otherwise a
	 * composite
	 */
	static IdWorkerListener of(ObjectProvider<IdWorkerListener> listeners) {
		List<IdWorkerListener> all = listeners.orderedStream().toList();
		if (all.isEmpty()) {
			return IdWorkerListener.NONE;
		}
		return (all.size() == 1) ? all.get(0) : new CompositeIdWorkerListener(all);
	}

	List<IdWorkerListener> listeners() {
		return this.listeners;
	}

	@Override
	public void storeCall(String key, String operation, long nanos, boolean success) {
		each((listener) -> listener.storeCall(key, operation, nanos, success));
	}

	@Override
	public void segmentWait(String key, long nanos, boolean served) {
		each((listener) -> listener.segmentWait(key, nanos, served));
	}

	@Override
	public void segmentRefused(String key, long knownMark, long storeStart) {
		each((listener) -> listener.segmentRefused(key, knownMark, storeStart));
	}

	@Override
	public void segmentKeyRetired(String key) {
		each((listener) -> listener.segmentKeyRetired(key));
	}

	@Override
	public void clockMovedBackwards(long offsetMillis, String action) {
		each((listener) -> listener.clockMovedBackwards(offsetMillis, action));
	}

	private void each(Consumer<IdWorkerListener> event) {
		for (IdWorkerListener listener : this.listeners) {
			try {
				event.accept(listener);
			}
			catch (RuntimeException ex) {
				failed(listener, ex);
			}
		}
	}

	private void failed(IdWorkerListener listener, RuntimeException ex) {
		logger.warn("IdWorkerListener {} threw; event skipped for it", listener.getClass().getName(), ex);
	}

}
