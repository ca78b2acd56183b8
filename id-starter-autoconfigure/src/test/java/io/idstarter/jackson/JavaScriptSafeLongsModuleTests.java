package io.idstarter.jackson;

import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JavaScriptSafeLongsModule}.
 */
class JavaScriptSafeLongsModuleTests {

	private static final long MAX_SAFE = 9007199254740991L;

	private final JsonMapper mapper = JsonMapper.builder().addModule(new JavaScriptSafeLongsModule()).build();

	@Test
	void longsBeyondTheSafeRangeAreWrittenAsStrings() {
		JsonNode json = this.mapper.valueToTree(new Sample(MAX_SAFE + 1, -(MAX_SAFE + 1), Long.MAX_VALUE, 0L));
		assertThat(json.get("primitive").asString()).isEqualTo("9007199254740992");
		assertThat(json.get("negative").asString()).isEqualTo("-9007199254740992");
		assertThat(json.get("boxed").asString()).isEqualTo("9223372036854775807");
		assertThat(json.get("annotated").isString()).isTrue();
	}

	@Test
	void longsWithinTheSafeRangeStayNumbersUnlessAnnotated() {
		JsonNode json = this.mapper.valueToTree(new Sample(MAX_SAFE, -MAX_SAFE, 12L, 13L));
		assertThat(json.get("primitive").isNumber()).isTrue();
		assertThat(json.get("primitive").asLong()).isEqualTo(MAX_SAFE);
		assertThat(json.get("negative").asLong()).isEqualTo(-MAX_SAFE);
		assertThat(json.get("boxed").asLong()).isEqualTo(12L);
		assertThat(json.get("annotated").isString()).isTrue();
		assertThat(json.get("annotated").asString()).isEqualTo("13");
	}

	@Test
	void collectionElementsAreCheckedOneByOne() {
		assertThat(this.mapper.writeValueAsString(List.of(1L, MAX_SAFE + 1))).isEqualTo("[1,\"9007199254740992\"]");
	}

	@Test
	void otherNumberTypesAreNotAffected() {
		assertThat(this.mapper.writeValueAsString(List.of(Integer.MAX_VALUE, 1e300))).isEqualTo("[2147483647,1.0E300]");
	}

	@Test
	void valuesRoundTrip() {
		Sample sample = new Sample(Long.MIN_VALUE, -1, Long.MAX_VALUE, MAX_SAFE + 7);
		assertThat(this.mapper.readValue(this.mapper.writeValueAsString(sample), Sample.class)).isEqualTo(sample);
	}

	@Test
	void safeRangeIsJavaScriptsMaxSafeInteger() {
		assertThat(JavaScriptSafeLongsModule.MAX_SAFE_INTEGER).isEqualTo(MAX_SAFE);
		assertThat(JavaScriptSafeLongsModule.isSafe(MAX_SAFE)).isTrue();
		assertThat(JavaScriptSafeLongsModule.isSafe(MAX_SAFE + 1)).isFalse();
		assertThat(JavaScriptSafeLongsModule.isSafe(-MAX_SAFE)).isTrue();
		assertThat(JavaScriptSafeLongsModule.isSafe(-MAX_SAFE - 1)).isFalse();
	}

	record Sample(long primitive, long negative, Long boxed, @IdAsString Long annotated) {
	}

}
