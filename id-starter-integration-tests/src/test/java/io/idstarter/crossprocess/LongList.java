package io.idstarter.crossprocess;

import java.util.Arrays;

/**
 * A growable list of longs, for IDs issued in this JVM without boxing; not thread-safe.
 */
final class LongList {

	private long[] values = new long[1024];

	private int size;

	void add(long value) {
		if (this.size == this.values.length) {
			this.values = Arrays.copyOf(this.values, this.size * 2);
		}
		this.values[this.size++] = value;
	}

	void addAll(long[] values) {
		for (long value : values) {
			add(value);
		}
	}

	int size() {
		return this.size;
	}

	long[] toArray() {
		return Arrays.copyOf(this.values, this.size);
	}

}
