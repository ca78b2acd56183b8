package io.idstarter.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * A runnable ID server: segment and Snowflake IDs over HTTP, compatible with Leaf's clients. By default it keeps its
 * state in an embedded H2 database in {@code ./data}; the profiles {@code mariadb}, {@code postgresql},
 * {@code redis} and {@code mongo} move it to a shared store ({@link IdServerStores}).
 */
@SpringBootApplication
@EnableConfigurationProperties(IdServerProperties.class)
public class IdServerApplication {

	public static void main(String[] args) {
		SpringApplication.run(IdServerApplication.class, args);
	}

}
