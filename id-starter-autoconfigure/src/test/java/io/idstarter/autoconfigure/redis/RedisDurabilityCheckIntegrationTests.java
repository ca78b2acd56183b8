package io.idstarter.autoconfigure.redis;

import java.nio.file.Path;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.store.redis.RedisDurabilityException;
import io.idstarter.testsupport.RedisServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The start-up check of the auto-configured Redis stores, on Redis servers this test starts on its own ports (16386,
 * 16387): a Redis without an append-only file stops REDIS and SEGMENT mode at start, with an analysis naming the
 * settings; {@code id-worker.redis.allow-volatile=true} lets them start; an append-only file passes.
 */
class RedisDurabilityCheckIntegrationTests {

	@TempDir
	Path directory;

	@Test
	void aRedisWithoutAnAppendOnlyFileStopsBothModesAtStartUnlessAllowed() {
		try (RedisServerProcess redis = RedisServerProcess.start(16386, this.directory.resolve("volatile"))) {
			ApplicationContextRunner runner = runner(redis);
			runner.withUserConfiguration(RedisMode.class).run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new RedisDurabilityFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
				assertThat(analysis.getDescription()).contains("127.0.0.1:16386").contains("keeps nothing on disk");
				assertThat(analysis.getAction()).contains("appendonly yes").contains("allow-volatile");
			});
			runner.withUserConfiguration(SegmentMode.class).withPropertyValues("id-worker.segment.store=redis")
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
						.isInstanceOf(RedisDurabilityException.class);
				});
			assertThat(redis.command("DBSIZE")).as("keys written by refused starts").isEqualTo("0");
			runner.withUserConfiguration(RedisMode.class).withPropertyValues("id-worker.redis.allow-volatile=true")
				.run((context) -> assertThat(context.getBean(IdWorker.class).nextId()).isPositive());
		}
	}

	@Test
	void aRedisWithAnAppendOnlyFileIsAccepted() {
		try (RedisServerProcess redis = RedisServerProcess.start(16387, this.directory.resolve("aof"), "--appendonly",
				"yes", "--appendfsync", "always")) {
			runner(redis).withUserConfiguration(RedisMode.class)
				.run((context) -> assertThat(context.getBean(IdWorker.class).nextId()).isPositive());
		}
	}

	private static ApplicationContextRunner runner(RedisServerProcess redis) {
		return new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=" + redis.port(),
					"spring.data.redis.timeout=5s", "id-worker.lease.namespace=durability");
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.REDIS)
	static class RedisMode {

	}

	@Configuration(proxyBeanMethods = false)
	@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
	static class SegmentMode {

	}

}
