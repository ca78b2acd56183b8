package io.idstarter.autoconfigure.redis;

import io.idstarter.lease.LeaseStoreException;
import io.idstarter.store.redis.RedisDurabilityException;
import io.idstarter.store.redis.RedisDurabilityException.Reason;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;

class RedisDurabilityFailureAnalyzerTests {

	private final RedisDurabilityFailureAnalyzer analyzer = new RedisDurabilityFailureAnalyzer();

	@Test
	void aRedisWithoutPersistenceNamesTheRedisSettingsAndTheEscapeHatch() {
		FailureAnalysis analysis = analyze(Reason.NOT_PERSISTENT, "Redis at cache:6379 keeps nothing on disk");
		assertThat(analysis.getDescription()).contains("would lose them on a restart")
			.contains("Redis at cache:6379 keeps nothing on disk");
		assertThat(analysis.getAction()).contains("appendonly yes")
			.contains("appendfsync always")
			.contains("CONFIG SET appendonly yes")
			.contains("id-worker.redis.allow-volatile=true");
	}

	@Test
	void tooFewAcknowledgementsNameTheWaitSettings() {
		FailureAnalysis analysis = analyze(Reason.NOT_ACKNOWLEDGED, "only 0 of the required 1 replicas");
		assertThat(analysis.getDescription()).contains("only 0 of the required 1 replicas");
		assertThat(analysis.getAction()).contains("id-worker.redis.wait.replicas")
			.contains("id-worker.redis.wait.timeout")
			.contains("INFO replication");
	}

	@Test
	void waitOnRedisClusterSaysToTurnItOff() {
		FailureAnalysis analysis = analyze(Reason.UNSUPPORTED, "cannot be asked for on Redis Cluster");
		assertThat(analysis.getAction()).contains("id-worker.redis.wait.replicas=0");
	}

	private FailureAnalysis analyze(Reason reason, String message) {
		// As at start-up: the store wraps it, and bean creation wraps the store's exception.
		Throwable failure = new BeanCreationException("idWorker",
				new LeaseStoreException("Could not borrow: " + message, new RedisDurabilityException(reason, message)));
		FailureAnalysis analysis = this.analyzer.analyze(failure);
		assertThat(analysis).isNotNull();
		return analysis;
	}

}
