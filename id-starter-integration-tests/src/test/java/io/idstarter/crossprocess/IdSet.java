package io.idstarter.crossprocess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.idstarter.snowflake.SnowflakeLayout;

/**
 * Every ID of a drill, from the files the processes wrote (or from memory), held as {@code long[]} with no boxing:
 * sorted once to count duplicates, and kept in file order to trace a duplicate to its sources and to check that each
 * thread's IDs increase.
 */
final class IdSet {

	private final long[] ids;

	private final long[] sorted;

	/** Where each file's IDs are in {@link #ids}, in the order read. */
	private final List<Part> parts;

	private IdSet(long[] ids, List<Part> parts) {
		this.ids = ids;
		this.parts = parts;
		this.sorted = ids.clone();
		Arrays.sort(this.sorted);
	}

	/**
	 * Reads ID files: big-endian longs; a trailing partial long (a write cut by SIGKILL) is ignored.
	 * @param files the files of each source (process label)
	 * @return the IDs
	 */
	static IdSet read(Map<String, List<Path>> files) {
		long total = 0;
		for (List<Path> paths : files.values()) {
			for (Path path : paths) {
				total += size(path) / Long.BYTES;
			}
		}
		long[] ids = new long[Math.toIntExact(total)];
		List<Part> parts = new ArrayList<>();
		int offset = 0;
		for (Map.Entry<String, List<Path>> source : files.entrySet()) {
			for (Path path : source.getValue()) {
				int count = read(path, ids, offset);
				parts.add(new Part(source.getKey(), path.getFileName().toString(), offset, count));
				offset += count;
			}
		}
		return new IdSet(ids, parts);
	}

	/**
	 * Wraps IDs issued in this JVM.
	 * @param ids the IDs of each source, each list in the order issued
	 * @return the IDs
	 */
	static IdSet of(Map<String, long[]> ids) {
		int total = ids.values().stream().mapToInt((values) -> values.length).sum();
		long[] all = new long[total];
		List<Part> parts = new ArrayList<>();
		int offset = 0;
		for (Map.Entry<String, long[]> source : ids.entrySet()) {
			System.arraycopy(source.getValue(), 0, all, offset, source.getValue().length);
			parts.add(new Part(source.getKey(), source.getKey(), offset, source.getValue().length));
			offset += source.getValue().length;
		}
		return new IdSet(all, parts);
	}

	private static long size(Path path) {
		try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
			return channel.size();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static int read(Path path, long[] into, int offset) {
		try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
			int count = (int) (channel.size() / Long.BYTES);
			ByteBuffer buffer = ByteBuffer.allocate(count * Long.BYTES);
			while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
				// read all
			}
			buffer.flip();
			buffer.asLongBuffer().get(into, offset, count);
			return count;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("cannot read " + path, ex);
		}
	}

	/**
	 * Returns how many IDs there are, duplicates included.
	 * @return the count
	 */
	/**
	 * Returns every ID, in the order read.
	 * @return a copy
	 */
	long[] toArray() {
		return this.ids.clone();
	}

	int size() {
		return this.ids.length;
	}

	/**
	 * Returns how many IDs each source issued.
	 * @return source to count, in the order read
	 */
	Map<String, Integer> countsBySource() {
		Map<String, Integer> counts = new LinkedHashMap<>();
		for (Part part : this.parts) {
			counts.merge(part.source, part.count, Integer::sum);
		}
		return counts;
	}

	/**
	 * Counts IDs that occur more than once (an ID three times counts two).
	 * @return the number of surplus occurrences
	 */
	long duplicateCount() {
		long duplicates = 0;
		for (int i = 1; i < this.sorted.length; i++) {
			if (this.sorted[i] == this.sorted[i - 1]) {
				duplicates++;
			}
		}
		return duplicates;
	}

	/**
	 * Describes the first duplicates: the value and every file it is in.
	 * @param max how many values to describe
	 * @return one line per value
	 */
	List<String> describeDuplicates(int max) {
		List<Long> values = new ArrayList<>();
		for (int i = 1; i < this.sorted.length && values.size() < max; i++) {
			boolean repeated = this.sorted[i] == this.sorted[i - 1];
			if (repeated && (values.isEmpty() || values.get(values.size() - 1) != this.sorted[i])) {
				values.add(this.sorted[i]);
			}
		}
		List<String> lines = new ArrayList<>();
		for (long value : values) {
			List<String> where = new ArrayList<>();
			for (Part part : this.parts) {
				for (int i = part.offset; i < part.offset + part.count; i++) {
					if (this.ids[i] == value) {
						where.add(part.source + "/" + part.name + "#" + (i - part.offset));
					}
				}
			}
			lines.add(value + " in " + where);
		}
		return lines;
	}

	/**
	 * Finds files whose IDs do not strictly increase: each file is one thread's IDs in the order it got them.
	 * @return one line per such file
	 */
	List<String> filesNotIncreasing() {
		List<String> problems = new ArrayList<>();
		for (Part part : this.parts) {
			for (int i = part.offset + 1; i < part.offset + part.count; i++) {
				if (this.ids[i] <= this.ids[i - 1]) {
					problems.add(part.source + "/" + part.name + ": ID #" + (i - part.offset) + " " + this.ids[i]
							+ " is not above the one before, " + this.ids[i - 1]);
					break;
				}
			}
		}
		return problems;
	}

	/**
	 * Returns, per worker ID, the timestamps each source stamped its IDs with.
	 * @param layout the layout the IDs were made with
	 * @return worker ID to the sources' ranges, sorted by their first timestamp
	 */
	Map<Integer, List<TimestampRange>> timestampRangesByWorker(SnowflakeLayout layout) {
		Map<String, TimestampRange> bySourceAndWorker = new LinkedHashMap<>();
		int workerShift = layout.sequenceBits();
		int timestampShift = layout.sequenceBits() + layout.workerIdBits();
		long workerMask = layout.maxWorkerId();
		long epochMillis = layout.epoch().toEpochMilli();
		for (Part part : this.parts) {
			for (int i = part.offset; i < part.offset + part.count; i++) {
				long id = this.ids[i];
				int worker = (int) ((id >>> workerShift) & workerMask);
				long timestamp = (id >>> timestampShift) + epochMillis;
				bySourceAndWorker.merge(part.source + "#" + worker,
						new TimestampRange(part.source, worker, timestamp, timestamp, 1), TimestampRange::merge);
			}
		}
		Map<Integer, List<TimestampRange>> byWorker = new TreeMap<>();
		for (TimestampRange range : bySourceAndWorker.values()) {
			byWorker.computeIfAbsent(range.worker, (worker) -> new ArrayList<>()).add(range);
		}
		byWorker.values().forEach((ranges) -> ranges.sort(Comparator.comparingLong(TimestampRange::first)));
		return byWorker;
	}

	/**
	 * Finds sources that stamped IDs of the same worker ID with overlapping timestamp ranges: each owner of a slot
	 * must issue strictly above every timestamp a previous owner may have used.
	 * @param layout the layout the IDs were made with
	 * @return one line per overlap
	 */
	List<String> workerTimestampOverlaps(SnowflakeLayout layout) {
		List<String> problems = new ArrayList<>();
		timestampRangesByWorker(layout).forEach((worker, ranges) -> {
			for (int i = 1; i < ranges.size(); i++) {
				TimestampRange before = ranges.get(i - 1);
				TimestampRange after = ranges.get(i);
				if (after.first <= before.last) {
					problems.add("worker " + worker + ": " + after + " overlaps " + before);
				}
			}
		});
		return problems;
	}

	/**
	 * The timestamps one source stamped under one worker ID.
	 *
	 * @param source the process
	 * @param worker the worker ID
	 * @param first the least timestamp, ms since the Unix epoch
	 * @param last the greatest timestamp
	 * @param count how many IDs
	 */
	record TimestampRange(String source, int worker, long first, long last, long count) {

		TimestampRange merge(TimestampRange other) {
			return new TimestampRange(this.source, this.worker, Math.min(this.first, other.first),
					Math.max(this.last, other.last), this.count + other.count);
		}

		@Override
		public String toString() {
			return this.source + " [" + this.first + ", " + this.last + "] (" + this.count + " IDs)";
		}

	}

	private record Part(String source, String name, int offset, int count) {
	}

}
