package com.example.store;

import java.util.Set;

import javax.sql.DataSource;

import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentAllocation;
import io.idstarter.segment.SegmentKeyAdmin;
import io.idstarter.segment.SegmentStore;

/**
 * Stands for a segment store of the reader's own in the docs' examples; it keeps its keys in memory.
 */
public class MySegmentStore implements SegmentStore, SegmentKeyAdmin {

	private final InMemorySegmentStore segments = new InMemorySegmentStore();

	public MySegmentStore(DataSource dataSource) {
	}

	@Override
	public SegmentAllocation allocate(String key) {
		return this.segments.allocate(key);
	}

	@Override
	public SegmentAllocation allocate(String key, int step) {
		return this.segments.allocate(key, step);
	}

	@Override
	public Set<String> keys() {
		return this.segments.keys();
	}

	@Override
	public boolean createKey(String key, long firstId, int step, String description) {
		return this.segments.createKey(key, firstId, step, description);
	}

	@Override
	public void updateStep(String key, int step) {
		this.segments.updateStep(key, step);
	}

}
