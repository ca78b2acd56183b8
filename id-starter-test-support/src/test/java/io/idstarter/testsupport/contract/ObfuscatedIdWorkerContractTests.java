package io.idstarter.testsupport.contract;

import io.idstarter.IdWorker;
import io.idstarter.IdWorkerListener;
import io.idstarter.codec.IdPermutation;
import io.idstarter.codec.ObfuscatedIdWorker;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerGrant;
import io.idstarter.time.TimeSource;

/**
 * {@link ObfuscatedIdWorker} over Snowflake passes the generator contract, except that its public IDs hide the
 * order they were issued in: a permutation maps distinct IDs to distinct IDs.
 */
class ObfuscatedIdWorkerContractTests extends AbstractIdWorkerContractTests {

	@Override
	protected IdWorker createIdWorker() {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		generator.grant(WorkerGrant.fixed(3));
		return new ObfuscatedIdWorker(generator, IdPermutation.of("contract-kit-secret-of-32-chars!"));
	}

	@Override
	protected boolean issuesInOrder() {
		return false;
	}

}
