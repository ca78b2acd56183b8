package io.idstarter.autoconfigure;

import java.time.Duration;

import io.idstarter.InvalidSettingException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeanWrapperImpl;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;

/**
 * Applies the rules id-starter-core states for its settings to the properties that carry them: a value core refuses
 * with an {@link IllegalArgumentException} is reported as Spring Boot's invalid-property failure, which names the
 * property, its value, core's reason and where the value was set. The rules themselves live in core; this class only
 * translates.
 *
 * @since 0.1.0
 */
public final class PropertyRules {

	private PropertyRules() {
	}

	/**
	 * Applies a rule of core to a property's value.
	 * @param property the full property name, such as {@code id-worker.jdbc.lease-table}
	 * @param value the value, for the report
	 * @param rule core's check, which throws {@link IllegalArgumentException} (or {@link NullPointerException} for a
	 * missing value) when the value is wrong
	 * @throws InvalidConfigurationPropertyValueException naming the property when core refuses the value
	 */
	public static void check(String property, @Nullable Object value, Runnable rule) {
		try {
			rule.run();
		}
		catch (IllegalArgumentException | NullPointerException ex) {
			throw invalid(property, value, String.valueOf(ex.getMessage()));
		}
	}

	/**
	 * Applies rules of core that cover several settings of one group, such as a builder's: the setting core names in
	 * its {@link InvalidSettingException} is reported as the property of the same name under the prefix
	 * ({@code safetyMargin} as {@code <prefix>safety-margin}), with that property's value.
	 * @param prefix the group's prefix with its trailing dot, such as {@code id-worker.lease.}
	 * @param properties the group's properties object, whose property names are core's setting names
	 * @param rule core's checks, such as building the settings
	 * @throws InvalidConfigurationPropertyValueException naming the property when core refuses a setting
	 */
	public static void checkSettings(String prefix, Object properties, Runnable rule) {
		try {
			rule.run();
		}
		catch (InvalidSettingException ex) {
			BeanWrapper wrapper = new BeanWrapperImpl(properties);
			String setting = ex.getSetting();
			Object value = wrapper.isReadableProperty(setting) ? wrapper.getPropertyValue(setting) : null;
			throw invalid(prefix + DataObjectPropertyName.toDashedForm(setting),
					(value instanceof Duration duration) ? format(duration) : value, String.valueOf(ex.getMessage()));
		}
	}

	/**
	 * Returns the failure for a value that breaks a rule only the Boot layer knows, such as one about how a client is
	 * built from properties.
	 * @param property the full property name
	 * @param value the value, for the report
	 * @param reason what the value must be
	 * @return the exception to throw
	 */
	public static InvalidConfigurationPropertyValueException invalid(String property, @Nullable Object value,
			String reason) {
		return new InvalidConfigurationPropertyValueException(property, value, reason);
	}

	/**
	 * Checks that a duration is positive.
	 * @param property the full property name
	 * @param value the value
	 * @throws InvalidConfigurationPropertyValueException if it is missing, zero or negative
	 */
	public static void requirePositive(String property, @Nullable Duration value) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw invalid(property, format(value), "must be positive");
		}
	}

	/**
	 * Checks that a text is set, not blank and not too long.
	 * @param property the full property name
	 * @param value the value
	 * @param maxLength the most characters
	 * @throws InvalidConfigurationPropertyValueException if it is missing, blank or longer
	 */
	public static void requireText(String property, @Nullable String value, int maxLength) {
		if (value == null || value.isBlank() || value.length() > maxLength) {
			throw invalid(property, value, "must be 1 to " + maxLength + " characters and not blank");
		}
	}

	/**
	 * Formats a duration as it is usually written in application.yml.
	 * @param duration the duration
	 * @return for example {@code 30s}, {@code 250ms} or {@code 2m}
	 */
	public static String format(@Nullable Duration duration) {
		if (duration == null) {
			return "null";
		}
		long millis = duration.toMillis();
		if (millis % 60_000 == 0 && millis != 0) {
			return (millis / 60_000) + "m";
		}
		if (millis % 1000 == 0 && millis != 0) {
			return (millis / 1000) + "s";
		}
		return millis + "ms";
	}

}
