package io.idstarter.jackson;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import com.fasterxml.jackson.annotation.JacksonAnnotationsInside;
import com.fasterxml.jackson.annotation.JsonFormat;

/**
 * Writes the annotated ID in JSON as a decimal string ({@code "1170348396470915072"}) so that JavaScript clients,
 * whose numbers are exact only up to 2<sup>53</sup> − 1, read it without losing digits. Reading accepts both the
 * string and the number.
 *
 * <p>Put it on a {@code long} or {@code Long} field, getter, record component or constructor parameter, or on a
 * collection of {@code Long} ({@code List<Long>}, {@code Set<Long>}) to write every element as a string. Primitive
 * arrays ({@code long[]}) are not affected: use {@code List<Long>} for those. It is a shortcut for
 * {@code @JsonFormat(shape = JsonFormat.Shape.STRING)} and needs no module or configuration.
 *
 * @since 0.1.0
 * @see JavaScriptSafeLongsModule
 */
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@JacksonAnnotationsInside
@JsonFormat(shape = JsonFormat.Shape.STRING)
public @interface IdAsString {

}
