package io.idstarter.autoconfigure;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.InMemoryLeaseStore;
import io.idstarter.segment.InMemorySegmentStore;
import io.idstarter.segment.SegmentStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * id-starter's in-memory reference stores in place of the modes' own, for tests that run without the server a mode
 * needs; selected instead of every store configuration when {@code id-worker.testing.in-memory-stores} is set. The
 * stores keep the same contract as the real ones within one JVM, so the generators behave as they do in production
 * while the stores answer.
 *
 * @since 0.1.0
 */
@AutoConfiguration
public final class InMemoryStoresConfiguration {

	/** Property that selects this configuration. */
	static final String PROPERTY = "id-worker.testing.in-memory-stores";

	private static final Logger logger = LoggerFactory.getLogger(InMemoryStoresConfiguration.class);

	@Bean
	@ConditionalOnMissingBean
	ISequenceManager idWorkerInMemoryLeaseStore() {
		logger.warn("{} is set: worker IDs are leased from memory, unique within this JVM only; for tests", PROPERTY);
		return new InMemoryLeaseStore();
	}

	@Bean
	@ConditionalOnMissingBean
	SegmentStore idWorkerInMemorySegmentStore() {
		logger.warn("{} is set: segments are allocated from memory and start over on every run; for tests", PROPERTY);
		return new InMemorySegmentStore();
	}

}
