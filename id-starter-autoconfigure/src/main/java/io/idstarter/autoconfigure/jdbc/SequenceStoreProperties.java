package io.idstarter.autoconfigure.jdbc;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Settings of the sequence segment store, under {@code id-worker.sequence}; bound only when
 * {@code id-worker.segment.store=sequence}.
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "id-worker.sequence", ignoreUnknownFields = false)
public class SequenceStoreProperties {

	/**
	 * Prefix of the sequence names made from keys (then the key, its characters other than lower-case letters and
	 * digits escaped); the store's {@code JdbcSequenceSegmentStore.DEFAULT_PREFIX}.
	 */
	private String prefix = "id_seq_";

	/**
	 * Keys whose sequence has a name of its own, such as an entity's existing sequence: key to sequence name,
	 * optionally qualified by a schema.
	 */
	private Map<String, String> sequences = new LinkedHashMap<>();

	public String getPrefix() {
		return this.prefix;
	}

	public void setPrefix(String prefix) {
		this.prefix = prefix;
	}

	public Map<String, String> getSequences() {
		return this.sequences;
	}

	public void setSequences(Map<String, String> sequences) {
		this.sequences = sequences;
	}

}
