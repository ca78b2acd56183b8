package io.idstarter.autoconfigure;

import java.sql.SQLException;

import io.idstarter.IdGenerationException;
import io.idstarter.lease.ClockSkewException;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.lease.NoFreeWorkerIdException;
import io.idstarter.segment.SegmentStoreException;
import io.idstarter.store.jdbc.JdbcLeaseStore;
import io.idstarter.store.jdbc.JdbcSequenceSegmentStore;
import io.idstarter.store.jdbc.SegmentSequenceException;
import io.idstarter.store.mongo.MongoSegmentStore;
import io.idstarter.store.redis.RedisLeaseStore;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;

class IdWorkerStartupFailureAnalyzerTests {

	private final DefaultListableBeanFactory beanFactory = new DefaultListableBeanFactory();

	private final IdWorkerStoreFailureAnalyzer storeAnalyzer = new IdWorkerStoreFailureAnalyzer(this.beanFactory);

	private final NoFreeWorkerIdFailureAnalyzer noFreeWorkerIdAnalyzer = new NoFreeWorkerIdFailureAnalyzer();

	@Test
	void leaseStoreFailureQuotesTheStoreAndSaysHowToCreateTheTable() {
		this.beanFactory.registerBeanDefinition("jdbcLeaseStore", new RootBeanDefinition(JdbcLeaseStore.class));
		LeaseStoreException cause = new LeaseStoreException("table 'id_worker_lease' does not exist");
		FailureAnalysis analysis = this.storeAnalyzer.analyze(wrapped(cause));
		assertThat(analysis.getDescription()).isEqualTo("The worker-ID lease store failed while the Snowflake "
				+ "generator started: table 'id_worker_lease' does not exist");
		assertThat(analysis.getAction()).contains("id-worker.jdbc.initialize-schema=always")
			.contains("classpath:io/idstarter/store/jdbc/schema-{mysql,postgresql,h2}.sql");
		assertThat(analysis.getCause()).isSameAs(cause);
	}

	@Test
	void segmentStoreFailureQuotesTheStore() {
		FailureAnalysis analysis = this.storeAnalyzer.analyze(wrapped(new SegmentStoreException(
				"connection refused: postgresql://db:5432/ids", new SQLException("refused", "08001"))));
		assertThat(analysis.getDescription()).isEqualTo("The segment store failed while the segment generator read "
				+ "its keys: connection refused: postgresql://db:5432/ids");
		assertThat(analysis.getAction()).contains("spring.datasource.*");
	}

	@Test
	void sequenceStoreFailureSaysWhatToCheckInSequencesAndNothingAboutTables() {
		this.beanFactory.registerBeanDefinition("jdbcSequenceSegmentStore",
				new RootBeanDefinition(JdbcSequenceSegmentStore.class));
		FailureAnalysis analysis = this.storeAnalyzer.analyze(wrapped(new SegmentStoreException(
				"Cannot list the keys: the database failed", new SQLException("permission denied", "42501"))));
		assertThat(analysis.getAction()).contains("CREATE SEQUENCE", "INCREMENT BY", "id-worker.sequence.sequences")
			.doesNotContain("initialize-schema", "schema-{mysql,postgresql,h2}.sql");
	}

	@Test
	void sequenceStoreFailureNamesTheSequenceAndTheStatementThatCreatesIt() {
		FailureAnalysis analysis = this.storeAnalyzer.analyze(wrapped(new SegmentSequenceException("orders",
				"id_seq_orders", "CREATE SEQUENCE id_seq_orders INCREMENT BY 50 MINVALUE 1 START WITH 50",
				"Cannot create sequence 'id_seq_orders' of key 'orders': permission denied",
				new SQLException("permission denied for schema public", "42501"))));
		assertThat(analysis.getAction()).contains("Sequence 'id_seq_orders' of key 'orders'",
				"CREATE SEQUENCE id_seq_orders INCREMENT BY 50 MINVALUE 1 START WITH 50",
				"GRANT USAGE, SELECT ON SEQUENCE id_seq_orders", "id-worker.segment.keys.orders.first-id")
			.doesNotContain("initialize-schema");
	}

	@Test
	void redisStoreFailureSaysWhatToCheckInRedisAndNothingAboutTables() {
		this.beanFactory.registerBeanDefinition("redisLeaseStore",
				new RootBeanDefinition(RedisLeaseStore.class));
		FailureAnalysis analysis = this.storeAnalyzer
			.analyze(wrapped(new LeaseStoreException("Redis at localhost:1 did not answer")));
		assertThat(analysis.getAction()).contains("spring.data.redis.*", "id-worker.redis.key-prefix")
			.doesNotContain("table", "jdbc", "datasource");
	}

	@Test
	void mongoStoreFailureSaysWhatToCheckInMongo() {
		this.beanFactory.registerBeanDefinition("mongoSegmentStore", new RootBeanDefinition(MongoSegmentStore.class));
		FailureAnalysis analysis = this.storeAnalyzer
			.analyze(wrapped(new SegmentStoreException("MongoDB timed out")));
		assertThat(analysis.getAction()).contains("spring.mongodb.*").doesNotContain("table", "jdbc");
	}

	@Test
	void noFreeWorkerIdNamesTheKeysThatMakeRoom() {
		FailureAnalysis analysis = this.noFreeWorkerIdAnalyzer
			.analyze(wrapped(new NoFreeWorkerIdException("all 1024 worker IDs of namespace 'orders' are held")));
		assertThat(analysis.getDescription())
			.isEqualTo("No Snowflake worker ID was free: all 1024 worker IDs of namespace 'orders' are held");
		assertThat(analysis.getAction()).contains("id-worker.lease.namespace")
			.contains("id-worker.lease.excluded-worker-ids")
			.contains("id-worker.snowflake.worker-id-bits")
			.contains("id-worker.lease.ttl");
	}

	@Test
	void clockSkewNamesTheKeyThatBoundsIt() {
		ClockSkewException cause = new ClockSkewException("this node's clock is 3400 ms behind the lease store's", 3400);
		FailureAnalysis analysis = new ClockSkewFailureAnalyzer().analyze(wrapped(cause));
		assertThat(analysis.getDescription())
			.isEqualTo("The Snowflake generator did not start: this node's clock is 3400 ms behind the lease store's");
		assertThat(analysis.getAction()).contains("NTP").contains("id-worker.lease.max-clock-skew");
	}

	@Test
	void otherIdGenerationFailuresAreLeftToTheDefaultReport() {
		assertThat(this.storeAnalyzer.analyze(wrapped(new IdGenerationException("clock behind")))).isNull();
		assertThat(this.storeAnalyzer.analyze(wrapped(new NoFreeWorkerIdException("full")))).isNull();
		assertThat(this.noFreeWorkerIdAnalyzer.analyze(wrapped(new LeaseStoreException("down")))).isNull();
	}

	private static Throwable wrapped(Throwable cause) {
		return new BeanCreationException("leasedSnowflakeWorker", "Invocation of init method failed", cause);
	}

}
