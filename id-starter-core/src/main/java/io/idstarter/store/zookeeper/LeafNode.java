package io.idstarter.store.zookeeper;

import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.idstarter.lease.LeaseStoreException;

/**
 * One worker ID recorded by Leaf's Snowflake: node name {@code <ip>:<port>-<sequence>}, data JSON with
 * {@code timestamp}, the last time (ms since the Unix epoch) the Leaf node reported.
 */
record LeafNode(int workerId, String address, long timestamp) {

	private static final Pattern NAME = Pattern.compile("(.+:\\d+)-(\\d+)");

	private static final Pattern TIMESTAMP = Pattern.compile("\"timestamp\"\\s*:\\s*\"?(\\d+)");

	static LeafNode parse(String name, byte[] data, String parent) {
		Matcher matcher = NAME.matcher(name);
		String json = new String(data, StandardCharsets.UTF_8);
		Matcher timestamp = TIMESTAMP.matcher(json);
		if (!matcher.matches() || !timestamp.find()) {
			throw new LeaseStoreException("Leaf node " + parent + "/" + name + " is not '<ip>:<port>-<sequence>' with "
					+ "JSON data holding a timestamp ('" + json + "'); check id-worker.zookeeper.leaf-name");
		}
		long sequence = Long.parseLong(matcher.group(2));
		if (sequence > Integer.MAX_VALUE) {
			throw new LeaseStoreException("Leaf node " + parent + "/" + name + " has a sequence beyond any worker id");
		}
		return new LeafNode((int) sequence, matcher.group(1), Long.parseLong(timestamp.group(1)));
	}

}
