package io.idstarter.segment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

/**
 * The double buffers of the keys a generator has used, found by key on every call: a read-mostly shortcut to the
 * primary key's buffer first, then a concurrent map.
 */
final class SegmentBuffers {

	/*
	 * Protocol. A buffer is put in `buffers` on its key's first call and taken out when its key leaves the store or the
	 * generator closes; whoever takes it out retires it. `primary` is a shortcut, never the only reference: it is set
	 * after the buffer is in the map and cleared (by a CAS from that buffer) after it is taken out. A buffer put in
	 * `primary` while a removal runs may be put there after the removal cleared it; `promote` therefore looks at the
	 * map again afterwards and clears it if the buffer is gone, so a retired buffer never stays the shortcut.
	 */

	private static final VarHandle PRIMARY;

	static {
		try {
			PRIMARY = MethodHandles.lookup().findVarHandle(SegmentBuffers.class, "primary", SegmentBuffer.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	/** Buffers of the keys used so far; a buffer is removed (and retired) when its key leaves the store. */
	private final ConcurrentHashMap<String, SegmentBuffer> buffers = new ConcurrentHashMap<>();

	/**
	 * The buffer of the default key, or else of the first key used, checked before the map because most applications
	 * use one key; written only when a buffer is created or removed, so it stays read-mostly.
	 */
	private volatile @Nullable SegmentBuffer primary;

	/**
	 * Returns the buffer of a key, if it has one.
	 * @param key the key
	 * @return the buffer, or null before the key's first call
	 */
	@Nullable SegmentBuffer find(String key) {
		SegmentBuffer buffer = this.primary;
		if (buffer != null && buffer.key().equals(key)) {
			return buffer;
		}
		return this.buffers.get(key);
	}

	/**
	 * Returns the buffer of a key, created if it has none.
	 * @param key the key
	 * @param newBuffer creates the buffer, at most once per key
	 * @return the buffer
	 */
	SegmentBuffer obtain(String key, Function<String, SegmentBuffer> newBuffer) {
		return this.buffers.computeIfAbsent(key, newBuffer);
	}

	/**
	 * Makes a buffer obtained from {@link #obtain} the shortcut: always for the default key, else if there is none.
	 * @param buffer the buffer
	 * @param defaultKey whether it is the default key's
	 */
	void promote(SegmentBuffer buffer, boolean defaultKey) {
		if (defaultKey) {
			this.primary = buffer;
		}
		else {
			PRIMARY.compareAndSet(this, null, buffer);
		}
		if (this.buffers.get(buffer.key()) != buffer) {
			// Removed meanwhile: the removal may have looked at `primary` before this buffer was put there.
			forgetPrimary(buffer);
		}
	}

	/**
	 * Takes a buffer out, unless it was replaced or taken out already; the caller retires it.
	 * @param buffer the buffer
	 * @return whether this call took it out
	 */
	boolean remove(SegmentBuffer buffer) {
		boolean removed = this.buffers.remove(buffer.key(), buffer);
		forgetPrimary(buffer);
		return removed;
	}

	/**
	 * Takes out the buffers of keys a read of the store's list does not have.
	 * @param read the keys the store has
	 * @param onRemoved receives each buffer this call took out, to retire it
	 */
	void removeAbsent(Set<String> read, Consumer<SegmentBuffer> onRemoved) {
		for (SegmentBuffer buffer : this.buffers.values()) {
			if (!read.contains(buffer.key()) && this.buffers.remove(buffer.key(), buffer)) {
				forgetPrimary(buffer);
				onRemoved.accept(buffer);
			}
		}
	}

	/**
	 * Takes out and retires every buffer; a buffer created meanwhile is left to its creator.
	 * @return the buffers this call retired
	 */
	List<SegmentBuffer> retireAll() {
		this.primary = null;
		List<SegmentBuffer> retired = new ArrayList<>(this.buffers.values());
		for (SegmentBuffer buffer : retired) {
			buffer.retire(/* keyRemoved= */ false);
			this.buffers.remove(buffer.key(), buffer);
		}
		return retired;
	}

	Collection<SegmentBuffer> all() {
		return this.buffers.values();
	}

	Set<String> keys() {
		return this.buffers.keySet();
	}

	private void forgetPrimary(SegmentBuffer buffer) {
		PRIMARY.compareAndSet(this, buffer, null);
	}

}
