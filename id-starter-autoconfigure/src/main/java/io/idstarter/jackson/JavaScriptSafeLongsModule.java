package io.idstarter.jackson;

import com.fasterxml.jackson.annotation.JsonFormat;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.BeanProperty;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.ValueSerializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.ser.std.StdSerializer;
import tools.jackson.databind.ser.std.ToStringSerializer;

/**
 * Jackson module that writes every {@code long} and {@code Long} JavaScript cannot represent exactly (beyond
 * ±(2<sup>53</sup> − 1), {@link #MAX_SAFE_INTEGER}) as a decimal string, and leaves all other numbers as they are.
 *
 * <p>A field then carries a number or a string depending on its value, so clients must accept both; for a field that
 * should always be a string, annotate it with {@link IdAsString} (which this module respects). Primitive arrays
 * ({@code long[]}) and map keys are not affected. Reading is unchanged: Jackson accepts both forms for a
 * {@code long}.
 *
 * @since 0.1.0
 */
public class JavaScriptSafeLongsModule extends SimpleModule {

	/** Largest integer JavaScript represents exactly: 2<sup>53</sup> − 1 ({@code Number.MAX_SAFE_INTEGER}). */
	public static final long MAX_SAFE_INTEGER = (1L << 53) - 1;

	/**
	 * Creates the module.
	 */
	public JavaScriptSafeLongsModule() {
		super(JavaScriptSafeLongsModule.class.getSimpleName());
		addSerializer(Long.class, SafeLongSerializer.INSTANCE);
		addSerializer(Long.TYPE, SafeLongSerializer.INSTANCE);
	}

	/**
	 * Returns whether JavaScript holds a value exactly as a number.
	 * @param value the value
	 * @return {@code true} if it lies within ±{@link #MAX_SAFE_INTEGER}
	 */
	public static boolean isSafe(long value) {
		return value >= -MAX_SAFE_INTEGER && value <= MAX_SAFE_INTEGER;
	}

	/**
	 * Writes a long as a number when it is safe and as a string otherwise; a property that asks for the string shape
	 * ({@code @IdAsString}) always gets a string.
	 */
	static final class SafeLongSerializer extends StdSerializer<Long> {

		static final SafeLongSerializer INSTANCE = new SafeLongSerializer();

		private SafeLongSerializer() {
			super(Long.class);
		}

		@Override
		public ValueSerializer<?> createContextual(SerializationContext context, @Nullable BeanProperty property) {
			JsonFormat.Value format = findFormatOverrides(context, property, handledType());
			return (format.getShape() == JsonFormat.Shape.STRING) ? ToStringSerializer.instance : this;
		}

		@Override
		public void serialize(Long value, JsonGenerator generator, SerializationContext context)
				throws JacksonException {
			long number = value;
			if (isSafe(number)) {
				generator.writeNumber(number);
			}
			else {
				generator.writeString(Long.toString(number));
			}
		}

	}

}
