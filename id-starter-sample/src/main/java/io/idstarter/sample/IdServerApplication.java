package io.idstarter.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A runnable ID server.
 */
@SpringBootApplication
public class IdServerApplication {

	public static void main(String[] args) {
		SpringApplication.run(IdServerApplication.class, args);
	}

}
