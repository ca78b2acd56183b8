package io.idstarter.autoconfigure.jackson;

import io.idstarter.jackson.JavaScriptSafeLongsModule;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration that adds {@link JavaScriptSafeLongsModule} to the application's JSON mapper when
 * {@code id-worker.json.unsafe-longs-as-strings} is set. {@link io.idstarter.jackson.IdAsString} works without it.
 *
 * @since 0.1.0
 */
@AutoConfiguration(beforeName = "org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration")
@ConditionalOnClass({ JsonMapper.class, JsonMapperBuilderCustomizer.class })
@EnableConfigurationProperties(IdWorkerJsonProperties.class)
public final class IdWorkerJacksonAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "idWorkerJsonMapperBuilderCustomizer")
	@ConditionalOnBooleanProperty("id-worker.json.unsafe-longs-as-strings")
	JsonMapperBuilderCustomizer idWorkerJsonMapperBuilderCustomizer() {
		return (builder) -> builder.addModule(new JavaScriptSafeLongsModule());
	}

}
