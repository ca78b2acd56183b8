package io.idstarter.lease;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

class WorkerIdCacheTests {

	@TempDir
	Path directory;

	@Test
	void aMissingFileRemembersNothing() {
		WorkerIdCache cache = new WorkerIdCache(this.directory.resolve("missing/worker-id"));
		assertThat(cache.read("default")).isEmpty();
	}

	@Test
	void remembersTheWorkerIdOfEachNamespace() {
		Path file = this.directory.resolve("state/worker-id");
		WorkerIdCache cache = new WorkerIdCache(file);
		cache.write("orders", 7);
		cache.write("odd = name/ü\n#", 1023);
		cache.write("orders", 8);
		WorkerIdCache reopened = new WorkerIdCache(file);
		assertThat(reopened.read("orders")).hasValue(8);
		assertThat(reopened.read("odd = name/ü\n#")).hasValue(1023);
		assertThat(reopened.read("payments")).isEmpty();
	}

	@Test
	void writesLeaveNoTemporaryFilesBehind() throws IOException {
		Path file = this.directory.resolve("worker-id");
		WorkerIdCache cache = new WorkerIdCache(file);
		for (int i = 0; i < 5; i++) {
			cache.write("ns" + i, i);
		}
		try (var files = Files.list(this.directory)) {
			assertThat(files).containsExactlyInAnyOrder(file, this.directory.resolve("worker-id.lock"));
		}
	}

	@Test
	void aCorruptFileIsIgnoredAndReplacedOnTheNextWrite() throws IOException {
		Path file = this.directory.resolve("worker-id");
		Files.writeString(file, "orders=7\nthis is not a cache line\n", StandardCharsets.UTF_8);
		WorkerIdCache cache = new WorkerIdCache(file);
		assertThat(cache.read("orders")).isEmpty();
		cache.write("payments", 3);
		assertThat(cache.read("payments")).hasValue(3);
		assertThat(cache.read("orders")).isEmpty();
	}

	@Test
	void aFileThatIsNotTextIsIgnored() throws IOException {
		Path file = this.directory.resolve("worker-id");
		Files.write(file, new byte[] { (byte) 0xff, (byte) 0xfe, 0, 1, 2 });
		assertThat(new WorkerIdCache(file).read("orders")).isEmpty();
		Files.writeString(file, "orders=-4\n", StandardCharsets.UTF_8);
		assertThat(new WorkerIdCache(file).read("orders")).isEmpty();
	}

}
