package io.idstarter.autoconfigure.jackson;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * JSON settings of id-starter.
 *
 * @since 0.1.0
 */
@ConfigurationProperties("id-worker.json")
public class IdWorkerJsonProperties {

	/**
	 * Whether to write every long outside JavaScript's safe integer range (beyond plus or minus 2^53 - 1) as a JSON
	 * string in the application's JSON mapper. Smaller longs stay numbers. Fields annotated with @IdAsString are
	 * strings either way.
	 */
	private boolean unsafeLongsAsStrings;

	public boolean isUnsafeLongsAsStrings() {
		return this.unsafeLongsAsStrings;
	}

	public void setUnsafeLongsAsStrings(boolean unsafeLongsAsStrings) {
		this.unsafeLongsAsStrings = unsafeLongsAsStrings;
	}

}
