package io.idstarter.startup.bare;

import io.idstarter.startup.StartupProbe;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application without id-starter: the same class path minus id-starter's jars, the same properties, no
 * {@code @EnableIdWorker}. It creates its own table at start (spring.sql.init), as an application that uses its
 * database does.
 */
@SpringBootApplication
public class BareApplication {

	public static void main(String[] args) {
		StartupProbe.run(BareApplication.class, args);
	}

}
