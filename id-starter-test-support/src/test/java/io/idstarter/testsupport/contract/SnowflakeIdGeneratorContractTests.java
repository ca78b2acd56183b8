package io.idstarter.testsupport.contract;

import io.idstarter.IdWorker;
import io.idstarter.IdWorkerListener;
import io.idstarter.snowflake.ClockBackwardsPolicy;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import io.idstarter.snowflake.SnowflakeLayout;
import io.idstarter.snowflake.WorkerGrant;
import io.idstarter.time.TimeSource;

/**
 * {@link SnowflakeIdGenerator} under a fixed grant passes the generator contract: every key shares one number space.
 */
class SnowflakeIdGeneratorContractTests extends AbstractIdWorkerContractTests {

	@Override
	protected IdWorker createIdWorker() {
		SnowflakeIdGenerator generator = new SnowflakeIdGenerator(SnowflakeLayout.defaults(), TimeSource.system(),
				ClockBackwardsPolicy.defaults(), IdWorkerListener.NONE);
		generator.grant(WorkerGrant.fixed(7));
		return generator;
	}

}
