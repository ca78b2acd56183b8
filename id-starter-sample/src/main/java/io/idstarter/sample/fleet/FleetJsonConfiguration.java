package io.idstarter.sample.fleet;

import java.util.List;

import io.idstarter.store.http.FleetMessages;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.http.converter.json.JacksonJsonHttpMessageConverter;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * Reads fleet requests strictly: a number where a whole number belongs ({@code "step": 1.5}), a number where text
 * belongs (a numeric {@code requestId}), text where a number belongs, or {@code null} for a number is a 400 problem,
 * never quietly converted. Other JSON of the server is read as before.
 */
@Configuration(proxyBeanMethods = false)
class FleetJsonConfiguration implements WebMvcConfigurer {

	/** The request bodies of the fleet API. */
	private static final List<Class<?>> REQUESTS = List.of(FleetMessages.RangeRequest.class,
			FleetMessages.BorrowRequest.class, FleetMessages.RenewRequest.class, FleetMessages.ReleaseRequest.class,
			FleetMessages.GiveBackRequest.class);

	private final JsonMapper strict;

	FleetJsonConfiguration(JsonMapper json) {
		this.strict = json.rebuild()
			.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
			.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
			.disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
			.withCoercionConfig(LogicalType.Textual, (text) -> text.setCoercion(CoercionInputShape.Integer,
					CoercionAction.Fail)
				.setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
				.setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
			.build();
	}

	@Override
	public void configureMessageConverters(HttpMessageConverters.ServerBuilder converters) {
		converters.configureMessageConverters((converter) -> {
			if (converter instanceof JacksonJsonHttpMessageConverter json) {
				for (Class<?> request : REQUESTS) {
					json.registerMappersForType(request,
							(mappers) -> mappers.put(MediaType.APPLICATION_JSON, this.strict));
				}
			}
		});
	}

}
