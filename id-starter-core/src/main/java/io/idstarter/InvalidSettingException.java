package io.idstarter;

/**
 * A setting of id-starter-core (a builder's or factory's parameter) was refused, naming the setting, so that a
 * configuration layer can report the refusal against the key the setting came from: Spring Boot turns
 * {@code workerIdBits} of {@code SnowflakeLayout} into {@code id-worker.snowflake.worker-id-bits}.
 *
 * @since 0.1.0
 */
public class InvalidSettingException extends IllegalArgumentException {

	private static final long serialVersionUID = 1L;

	private final String setting;

	/**
	 * Creates an exception.
	 * @param setting the refused setting, as the builder names it, such as {@code heartbeat} or {@code workerIdBits}
	 * @param message what the setting must be and what it was
	 */
	public InvalidSettingException(String setting, String message) {
		super(message);
		this.setting = setting;
	}

	/**
	 * Returns the refused setting.
	 * @return the name the builder or factory gives it, in camel case
	 */
	public String getSetting() {
		return this.setting;
	}

}
