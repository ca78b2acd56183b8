package io.idstarter.autoconfigure.jackson;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link IdWorkerJacksonAutoConfiguration}.
 */
class IdWorkerJacksonAutoConfigurationTests {

	private static final long UNSAFE = (1L << 53) + 1;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(IdWorkerJacksonAutoConfiguration.class, JacksonAutoConfiguration.class));

	@Test
	void longsStayNumbersByDefault() {
		this.contextRunner.run((context) -> {
			assertThat(context).doesNotHaveBean("idWorkerJsonMapperBuilderCustomizer");
			assertThat(context.getBean(JsonMapper.class).writeValueAsString(UNSAFE)).isEqualTo("9007199254740993");
		});
	}

	@Test
	void unsafeLongsAreWrittenAsStringsWhenTheyAreAskedFor() {
		this.contextRunner.withPropertyValues("id-worker.json.unsafe-longs-as-strings=true").run((context) -> {
			assertThat(context).hasBean("idWorkerJsonMapperBuilderCustomizer");
			JsonMapper mapper = context.getBean(JsonMapper.class);
			assertThat(mapper.writeValueAsString(UNSAFE)).isEqualTo("\"9007199254740993\"");
			assertThat(mapper.writeValueAsString(42L)).isEqualTo("42");
			assertThat(context.getBean(IdWorkerJsonProperties.class).isUnsafeLongsAsStrings()).isTrue();
		});
	}

	@Test
	void userCustomizerWithTheSameNameWins() {
		JsonMapperBuilderCustomizer mine = (builder) -> {
		};
		this.contextRunner.withPropertyValues("id-worker.json.unsafe-longs-as-strings=true")
			.withBean("idWorkerJsonMapperBuilderCustomizer", JsonMapperBuilderCustomizer.class, () -> mine)
			.run((context) -> assertThat(context.getBean(JsonMapper.class).writeValueAsString(UNSAFE))
				.isEqualTo("9007199254740993"));
	}

	@Test
	void backsOffWithoutJackson() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(JsonMapper.class))
			.withPropertyValues("id-worker.json.unsafe-longs-as-strings=true")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(IdWorkerJsonProperties.class)
				.doesNotHaveBean("idWorkerJsonMapperBuilderCustomizer"));
	}

}
