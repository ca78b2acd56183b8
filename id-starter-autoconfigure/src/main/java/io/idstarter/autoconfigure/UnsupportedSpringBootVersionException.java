package io.idstarter.autoconfigure;

/**
 * Thrown at start-up when the application runs a Spring Boot version id-starter does not support: parts of it would
 * be missing without a word (on Spring Boot 3, the {@code idWorker} health contributor), so it refuses to start.
 * {@code UnsupportedSpringBootVersionFailureAnalyzer} turns it into a report that says which versions are supported.
 *
 * @since 0.1.0
 */
public class UnsupportedSpringBootVersionException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String version;

	private final SupportedSpringBootVersions supported;

	UnsupportedSpringBootVersionException(String version, SupportedSpringBootVersions supported) {
		super("id-starter " + supported.idStarterVersion() + " supports Spring Boot " + supported.describe()
				+ ", but the application runs Spring Boot " + version);
		this.version = version;
		this.supported = supported;
	}

	/**
	 * Returns the Spring Boot version the application runs.
	 * @return the version, as Spring Boot reports it
	 */
	public String getVersion() {
		return this.version;
	}

	SupportedSpringBootVersions getSupported() {
		return this.supported;
	}

}
