package com.example.plain;

import java.nio.file.Path;

import javax.sql.DataSource;

import io.idstarter.IdWorker;
import io.idstarter.IdWorkerListener;
import io.idstarter.codec.Crockford32;
import io.idstarter.codec.IdPermutation;
import io.idstarter.codec.ObfuscatedIdWorker;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseSettings;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.segment.SegmentIdGenerator;
import io.idstarter.segment.SegmentMarks;
import io.idstarter.segment.SegmentOptions;
import io.idstarter.segment.SegmentStore;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.store.jdbc.JdbcSchema;
import io.idstarter.store.jdbc.JdbcSegmentStore;
import io.idstarter.store.jdbc.JdbcLeaseStore;
import io.idstarter.store.redis.RedisSegmentStore;
import io.idstarter.store.redis.RedisLeaseStore;
import io.idstarter.time.TimeSource;

import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The docs' examples of id-starter's core without Spring Boot, one method per page.
 */
class WithoutSpring {

	void jdbc(DataSource dataSource) {
		// tag::jdbc[]
		JdbcSchema.initialize(dataSource);                      // CREATE TABLE IF NOT EXISTS, for the detected database
		SegmentStore segments = new JdbcSegmentStore(dataSource); // or new JdbcSegmentStore(dataSource, "my_alloc")
		ISequenceManager leases = new JdbcLeaseStore(dataSource); // or (dataSource, "my_lease")
		// end::jdbc[]
	}

	void redis(RedisConnectionFactory connectionFactory) {
		// tag::redis[]
		RedisSegmentStore segments = new RedisSegmentStore(connectionFactory);              // prefix "id-starter:"
		RedisLeaseStore leases = new RedisLeaseStore(connectionFactory, "orders:");
		// end::redis[]
	}

	void segments(SegmentStore store) {
		// tag::segments[]
		SegmentIdGenerator ids = new SegmentIdGenerator(store, SegmentOptions.builder().defaultKey("order").build());
		// or: new SegmentIdGenerator(store, options, TimeSource.system(), IdWorkerListener.NONE, null,
		//         SegmentMarks.file(Path.of("/var/lib/app/segment-marks")))   keeps this node's high marks across restarts
		ids.start();                         // reads the keys; ranges are fetched on each key's first call
		long id = ids.nextId("order");
		long[] batch = ids.nextIds("order", 100);
		ids.close();                         // at shutdown
		// end::segments[]
	}

	void snowflake(ISequenceManager sequenceManager) {
		// tag::snowflake[]
		TimeSource time = TimeSource.system();
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), time,
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		WorkerLeaseKeeper keeper = new WorkerLeaseKeeper(sequenceManager, generator,
				LeaseSettings.builder().namespace("orders").cacheFile(Path.of("/var/lib/app/worker-id")).build(),
				time, IdWorkerListener.NONE);
		keeper.start();
		long id = generator.nextId();
		// at shutdown
		keeper.close();
		// end::snowflake[]
	}

	void publicIds(IdWorker idWorker, String secret) {
		// tag::permutation[]
		IdPermutation permutation = IdPermutation.of(secret);          // secret from configuration, never from source code
		ObfuscatedIdWorker publicIds = new ObfuscatedIdWorker(idWorker, permutation);

		long id = publicIds.nextId("order");                           // e.g. 8249143537537354226 instead of 1
		long raw = publicIds.reveal(id);                               // 1 again; reveal(key, id) for per-key permutations
		// end::permutation[]
	}

	void publicIdsPerKey(IdWorker idWorker, String orderSecret, String invoiceSecret) {
		// tag::per-key[]
		ObfuscatedIdWorker worker = ObfuscatedIdWorker.builder(idWorker)
		    .permutation("order", IdPermutation.of(orderSecret))       // only these keys are permuted...
		    .permutation("invoice", IdPermutation.of(invoiceSecret))
		    // .permutation(IdPermutation.of(secret))                  // ...unless a default is set for all others
		    .codec(Crockford32.INSTANCE)                               // nextIdString(): 13 characters, e.g. "74YPRAXR1Z2FJ"
		    .build();

		String text = worker.nextIdString("order");
		long raw = worker.revealString("order", text);                 // string forms decode back too (any case here)
		// end::per-key[]
	}

}
