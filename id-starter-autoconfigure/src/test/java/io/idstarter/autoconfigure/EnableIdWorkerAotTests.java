package io.idstarter.autoconfigure;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.data.mongodb.autoconfigure.DataMongoAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.mongodb.autoconfigure.MongoAutoConfiguration;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.core.env.MapPropertySource;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ahead-of-time processing (what {@code spring-boot:process-aot} runs) of an application context in every mode and
 * with every segment store: it writes code for every bean definition id-starter registers, which fails for a bean
 * registered with an instance supplier. Nothing connects to a store: AOT processing creates no beans.
 */
class EnableIdWorkerAotTests {

	@ParameterizedTest
	@ValueSource(strings = { "segment-jdbc", "segment-redis", "segment-mongo", "db", "redis", "mongo",
			"segment-and-db" })
	void contextIsProcessedAheadOfTime(String setup) {
		Class<?> application = switch (setup) {
			case "db" -> DbMode.class;
			case "redis" -> RedisMode.class;
			case "mongo" -> MongoMode.class;
			case "segment-and-db" -> SegmentAndDbMode.class;
			default -> SegmentMode.class;
		};
		String store = setup.startsWith("segment-") && !setup.equals("segment-and-db") ? setup.substring(8) : "jdbc";
		try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("test", Map.of("id-worker.segment.store", store,
						"spring.datasource.url", "jdbc:h2:mem:aot", "spring.mongodb.uri",
						"mongodb://localhost:1/aot")));
			context.register(application);
			InMemoryGeneratedFiles files = new InMemoryGeneratedFiles();
			DefaultGenerationContext generation = new DefaultGenerationContext(
					new ClassNameGenerator(ClassName.get(application)), files);
			ClassName initializer = new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
			generation.writeGeneratedContent();
			assertThat(initializer).isNotNull();
			assertThat(files.getGeneratedFiles(org.springframework.aot.generate.GeneratedFiles.Kind.SOURCE))
				.anySatisfy((path, content) -> assertThat(path).contains("IdWorkerModes__BeanDefinitions"));
			if (!setup.equals("segment-and-db")) {
				return;
			}
			assertThat(files.getGeneratedFiles(org.springframework.aot.generate.GeneratedFiles.Kind.SOURCE))
				.anySatisfy((path, content) -> assertThat(path).contains("IdWorkerModesRegistrar__BeanDefinitions"));
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, DataRedisAutoConfiguration.class,
			MongoAutoConfiguration.class, DataMongoAutoConfiguration.class })
	@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
	static class SegmentMode {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(DataSourceAutoConfiguration.class)
	@EnableIdWorker(mode = IdWorkerMode.DB)
	static class DbMode {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(DataRedisAutoConfiguration.class)
	@EnableIdWorker(mode = IdWorkerMode.REDIS)
	static class RedisMode {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ MongoAutoConfiguration.class, DataMongoAutoConfiguration.class })
	@EnableIdWorker(mode = IdWorkerMode.MONGO)
	static class MongoMode {

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(DataSourceAutoConfiguration.class)
	@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.DB })
	static class SegmentAndDbMode {

	}

}
