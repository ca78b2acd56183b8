package io.idstarter.store;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;

import io.idstarter.IdWorkerListener;
import io.idstarter.StoreRegressionException;
import io.idstarter.segment.DynamicStep;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentMarks;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.UnknownKeyException;
import io.idstarter.time.TimeSource;

/**
 * Segment generators of "nodes" that keep their high marks in a file, and the bookkeeping of a store-loss drill: every
 * ID served by any of them, duplicates, refusals.
 */
public final class GuardedSegments {

	/** Keeps ranges at the key's configured step, so the drills can predict marks. */
	private static final DynamicStep FIXED_STEP = new DynamicStep(Duration.ofMinutes(15), Duration.ofMinutes(30), 1);

	private final Set<Long> served = new HashSet<>();

	private long duplicates;

	private long refusals;

	private long unknownKey;

	/**
	 * Starts a node on a store, with its marks in a file; the key list is re-read every second.
	 */
	public SegmentIdGenerator start(SegmentStore store, Path marksFile) {
		SegmentOptions options = SegmentOptions.builder()
			.dynamicStep(FIXED_STEP)
			.maxWait(Duration.ofSeconds(2))
			.keyRefreshInterval(Duration.ofSeconds(1))
			.build();
		SegmentIdGenerator generator = new SegmentIdGenerator(store, options, TimeSource.system(),
				IdWorkerListener.NONE, null, SegmentMarks.file(marksFile));
		generator.start();
		return generator;
	}

	/**
	 * Draws up to {@code count} IDs, recording each; stops at the first refusal or unknown-key error.
	 * @return the refusal, or null if all were served
	 */
	public synchronized StoreRegressionException draw(SegmentIdGenerator generator, String key, int count) {
		for (int i = 0; i < count; i++) {
			try {
				long id = generator.nextId(key);
				if (!this.served.add(id)) {
					this.duplicates++;
				}
			}
			catch (StoreRegressionException ex) {
				this.refusals++;
				return ex;
			}
			catch (UnknownKeyException ex) {
				this.unknownKey++;
				return null;
			}
		}
		return null;
	}

	/**
	 * Draws up to {@code count} IDs, recording each, and lets an unknown-key error through.
	 */
	public synchronized void drawOrThrow(SegmentIdGenerator generator, String key, int count) {
		for (int i = 0; i < count; i++) {
			long id = generator.nextId(key);
			if (!this.served.add(id)) {
				this.duplicates++;
			}
		}
	}

	public synchronized long idsChecked() {
		return this.served.size() + this.duplicates;
	}

	public synchronized long duplicates() {
		return this.duplicates;
	}

	public synchronized long refusals() {
		return this.refusals;
	}

	public synchronized long unknownKey() {
		return this.unknownKey;
	}

	/** The figures of a drill, for the log and docs/correctness.md. */
	public synchronized String figures(String drill) {
		return String.format(Locale.ROOT, "%s: %d IDs checked, %d duplicates, %d refusals, %d unknown-key errors",
				drill, idsChecked(), this.duplicates, this.refusals, this.unknownKey);
	}

}
