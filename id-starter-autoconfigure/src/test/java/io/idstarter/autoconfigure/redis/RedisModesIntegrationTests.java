package io.idstarter.autoconfigure.redis;

import java.util.Set;
import java.util.UUID;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.lease.WorkerLeaseKeeper;
import io.idstarter.store.redis.RedisSegmentStore;
import io.idstarter.testsupport.TestBackends;
import io.idstarter.testsupport.TestBackends.RedisBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * REDIS mode and Redis segments on the real Redis server, under a key prefix of their own (the server is shared).
 */
class RedisModesIntegrationTests {

	private final RedisBackend redis = TestBackends.redis();

	private final String prefix = "it-" + UUID.randomUUID() + ":";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class))
		.withPropertyValues("spring.data.redis.host=" + this.redis.host(),
				"spring.data.redis.port=" + this.redis.port(), "id-worker.redis.key-prefix=" + this.prefix,
				"id-worker.lease.namespace=it");

	@Test
	void redisModeLeasesDifferentWorkerIdsUnderTheConfiguredPrefix() {
		this.contextRunner.withUserConfiguration(RedisMode.class).run((first) -> {
			assertThat(first).hasNotFailed();
			int firstWorkerId = first.getBean(WorkerLeaseKeeper.class).status().workerId();
			this.contextRunner.withUserConfiguration(RedisMode.class).run((second) -> {
				assertThat(second.getBean(WorkerLeaseKeeper.class).status().workerId()).isNotEqualTo(firstWorkerId);
				assertThat(second.getBean(IdWorker.class).nextId()).isPositive();
			});
			assertThat(ownKeys()).isNotEmpty();
		});
	}

	@Test
	void segmentsComeFromRedisWhenChosen() {
		ApplicationContextRunner segments = this.contextRunner.withUserConfiguration(SegmentMode.class)
			.withPropertyValues("id-worker.segment.store=redis");
		// The key must exist when the generators start: they read the key list then.
		segments.run((setup) -> {
			assertThat(setup).hasSingleBean(RedisSegmentStore.class);
			setup.getBean(RedisSegmentStore.class).createKey("orders", 1, 50, "integration test");
		});
		segments.run((first) -> segments.run((second) -> {
			assertThat(first.getBean(IdWorker.class).nextId("orders")).isEqualTo(1);
			assertThat(second.getBean(IdWorker.class).nextId("orders")).isEqualTo(51);
		}));
		assertThat(ownKeys()).allMatch((key) -> key.startsWith(this.prefix)).isNotEmpty();
	}

	@AfterEach
	void deleteOwnKeys() {
		withTemplate((template) -> {
			Set<String> keys = ownKeys(template);
			if (!keys.isEmpty()) {
				template.delete(keys);
			}
			return null;
		});
	}

	private Set<String> ownKeys() {
		return withTemplate(this::ownKeys);
	}

	private Set<String> ownKeys(StringRedisTemplate template) {
		try (var cursor = template.scan(ScanOptions.scanOptions().match(this.prefix + "*").count(1000).build())) {
			return cursor.stream().collect(java.util.stream.Collectors.toSet());
		}
	}

	private <T> T withTemplate(java.util.function.Function<StringRedisTemplate, T> action) {
		LettuceConnectionFactory factory = new LettuceConnectionFactory(this.redis.host(), this.redis.port());
		factory.afterPropertiesSet();
		factory.start();
		try {
			return action.apply(new StringRedisTemplate(factory));
		}
		finally {
			factory.destroy();
		}
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
