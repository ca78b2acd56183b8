package io.idstarter.sample;

import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The server refuses two store profiles at once.
 */
class StoreProfilesCheckTests {

	@Test
	void refusesToStartWithTheRedisAndMongoProfilesTogether() {
		assertThatIllegalStateException()
			.isThrownBy(() -> new SpringApplicationBuilder(IdServerApplication.class).profiles("redis", "mongo")
				.run("--server.port=0", "--id-server.data-dir=" + TestDataDirs.create("two-stores"))
				.close())
			.withMessage("The profiles [redis, mongo] are all active, but the ID server keeps its IDs in one store: "
					+ "activate one of [redis, mongo] (or none, for the relational database)");
	}

}
