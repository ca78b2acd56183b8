package io.idstarter.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Fresh data directories (H2 file, worker-ID cache) under {@code target/test-data}, one per test context, kept after
 * the run for inspection.
 */
final class TestDataDirs {

	private TestDataDirs() {
	}

	static Path create(String name) {
		Path dir = Path.of("target", "test-data", name + "-" + UUID.randomUUID().toString().substring(0, 8))
			.toAbsolutePath();
		try {
			return Files.createDirectories(dir);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
