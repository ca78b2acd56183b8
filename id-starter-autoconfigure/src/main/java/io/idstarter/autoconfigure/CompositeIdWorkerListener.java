package io.idstarter.autoconfigure;

import java.util.List;

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
		for (IdWorkerListener listener : this.listeners) {
			try {
				listener.storeCall(key, operation, nanos, success);
			}
			catch (RuntimeException ex) {
				failed(listener, ex);
			}
		}
	}

	@Override
	public void segmentWait(String key, long nanos, boolean served) {
		for (IdWorkerListener listener : this.listeners) {
			try {
				listener.segmentWait(key, nanos, served);
			}
			catch (RuntimeException ex) {
				failed(listener, ex);
			}
		}
	}

	@Override
	public void clockMovedBackwards(long offsetMillis, String action) {
		for (IdWorkerListener listener : this.listeners) {
			try {
				listener.clockMovedBackwards(offsetMillis, action);
			}
			catch (RuntimeException ex) {
				failed(listener, ex);
			}
		}
	}

	@Override
	public void segmentKeyRetired(String key) {
		for (IdWorkerListener listener : this.listeners) {
			try {
				listener.segmentKeyRetired(key);
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
