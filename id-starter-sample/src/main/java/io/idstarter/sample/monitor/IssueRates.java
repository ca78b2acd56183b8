package io.idstarter.sample.monitor;

import java.util.HashMap;
import java.util.Map;

import io.idstarter.segment.SegmentBufferView;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.snowflake.SnowflakeIdGenerator;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * Issue rates (IDs per second) of each segment key and of the Snowflake generator, from the change of their
 * {@code issuedCount} between two samples taken a second apart. Sampling runs on the scheduler thread only; readers
 * see the latest rates through one volatile reference.
 */
@Component
public class IssueRates {

	/** Time between two samples, in milliseconds. */
	static final long SAMPLE_INTERVAL_MILLIS = 1000;

	/** Key of the Snowflake generator in the published rates; segment keys cannot be empty. */
	private static final String SNOWFLAKE = "";

	private final SegmentIdGenerator segments;

	private final SnowflakeIdGenerator snowflake;

	/** Latest sample of each counter; read and written only by the scheduler thread. */
	private final Map<String, Sample> previous = new HashMap<>();

	/** Rates from the latest two samples; an immutable map, replaced whole after each sample. */
	private volatile Map<String, Double> rates = Map.of();

	IssueRates(SegmentIdGenerator segments, SnowflakeIdGenerator snowflake) {
		this.segments = segments;
		this.snowflake = snowflake;
	}

	/**
	 * Returns the issue rate of a segment key.
	 * @param key the key
	 * @return IDs per second over the latest sample interval, 0 before two samples exist
	 */
	public double segmentRate(String key) {
		return this.rates.getOrDefault(key, 0.0);
	}

	/**
	 * Returns the issue rate of the Snowflake generator.
	 * @return IDs per second over the latest sample interval, 0 before two samples exist
	 */
	public double snowflakeRate() {
		return this.rates.getOrDefault(SNOWFLAKE, 0.0);
	}

	@Scheduled(fixedRate = SAMPLE_INTERVAL_MILLIS)
	void sample() {
		long now = System.nanoTime();
		Map<String, Double> rates = new HashMap<>();
		for (SegmentBufferView view : this.segments.views()) {
			record(view.key(), view.issuedCount(), now, rates);
		}
		record(SNOWFLAKE, this.snowflake.issuedCount(), now, rates);
		this.previous.keySet().retainAll(rates.keySet());
		this.rates = Map.copyOf(rates);
	}

	private void record(String key, long count, long now, Map<String, Double> rates) {
		Sample last = this.previous.put(key, new Sample(count, now));
		// A key re-loaded after it left the store starts counting from 0 again: no negative rate.
		rates.put(key, (last != null && count >= last.count() && now > last.nanoTime())
				? (count - last.count()) * 1e9 / (now - last.nanoTime()) : 0.0);
	}

	private record Sample(long count, long nanoTime) {
	}

}
