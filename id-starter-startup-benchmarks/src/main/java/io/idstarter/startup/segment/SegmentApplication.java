package io.idstarter.startup.segment;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.startup.StartupProbe;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * SEGMENT mode on the application's database (the embedded H2), with the keys declared in
 * {@code id-worker.segment.keys.*}.
 */
@SpringBootApplication
@EnableIdWorker(mode = IdWorkerMode.SEGMENT)
public class SegmentApplication {

	public static void main(String[] args) {
		StartupProbe.run(SegmentApplication.class, args);
	}

}
