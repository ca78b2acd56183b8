package io.idstarter.store.zookeeper;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.SnowflakePresets;
import org.jspecify.annotations.Nullable;

/**
 * A Leaf Snowflake deployment that shares the ZooKeeper ensemble: Leaf records each worker ID it ever gave as a
 * persistent sequential node {@code /snowflake/<leafName>/forever/<ip>:<port>-<sequence>} (the sequence is the worker
 * ID, the data JSON {@code {ip, port, timestamp}}) and never frees one. {@link ZooKeeperLeaseStore} treats these
 * worker IDs as held, except the one of {@link #ownAddress()}, which this node takes over.
 *
 * @param leafName Leaf's {@code leaf.name}
 * @param ownAddress this node's {@code ip:port} as Leaf recorded it when it ran here, or {@code null} when this node
 * takes over no Leaf worker ID
 */
public record LeafSnowflake(String leafName, @Nullable String ownAddress) {

	/**
	 * How often Leaf reports its timestamp: a Leaf node may have issued IDs up to this much after its last report, so
	 * a takeover starts above the report plus this interval.
	 */
	public static final Duration REPORT_INTERVAL = Duration.ofSeconds(3);

	/** Leaf's epoch: 1288834974657 ms since the Unix epoch (Twitter's), 2010-11-04T01:42:54.657Z. */
	public static final Instant EPOCH = Instant.ofEpochMilli(1288834974657L);

	/**
	 * Returns Leaf's Snowflake layout: {@link #EPOCH}, 41 timestamp bits, 10 worker-ID bits, 12 sequence bits. IDs of
	 * this layout under a worker ID taken over from Leaf continue above Leaf's.
	 * @return the layout
	 */
	public static SnowflakeLayout layout() {
		return SnowflakePresets.leaf();
	}

	public LeafSnowflake {
		Objects.requireNonNull(leafName, "leafName");
		if (leafName.isBlank() || leafName.contains("/")) {
			throw new IllegalArgumentException("leafName must be Leaf's leaf.name (not blank, no '/'): '" + leafName + "'");
		}
		if (ownAddress != null && !ownAddress.matches("[^\\s:/]+:\\d{1,5}")) {
			throw new IllegalArgumentException("ownAddress must be ip:port as Leaf recorded it: '" + ownAddress + "'");
		}
	}

	/**
	 * Returns where Leaf keeps its worker IDs.
	 * @return {@code /snowflake/<leafName>/forever}
	 */
	public String foreverPath() {
		return "/snowflake/" + this.leafName + "/forever";
	}

}
