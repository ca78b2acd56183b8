package io.idstarter.jackson;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link IdAsString}.
 */
class IdAsStringTests {

	private static final long ID = 1170348396470915073L;

	private final JsonMapper mapper = JsonMapper.builder().build();

	@Test
	void annotatedLongsAreWrittenAsStringsAndOtherLongsStayNumbers() {
		JsonNode json = this.mapper.valueToTree(new Order(ID, ID + 1, List.of(ID + 2, 7L), ID + 3));
		assertThat(json.get("id").isString()).isTrue();
		assertThat(json.get("id").asString()).isEqualTo("1170348396470915073");
		assertThat(json.get("parentId").asString()).isEqualTo("1170348396470915074");
		assertThat(json.get("lineIds").get(0).asString()).isEqualTo("1170348396470915075");
		assertThat(json.get("lineIds").get(1).isString()).isTrue();
		assertThat(json.get("amount").isNumber()).isTrue();
		assertThat(json.get("amount").asLong()).isEqualTo(ID + 3);
	}

	@Test
	void stringsRoundTripToTheSameIds() {
		Order order = new Order(ID, null, List.of(ID + 2), 5L);
		String json = this.mapper.writeValueAsString(order);
		assertThat(this.mapper.readValue(json, Order.class)).isEqualTo(order);
	}

	@Test
	void annotatedFieldsStillAcceptNumbers() {
		Order order = this.mapper.readValue("{\"id\":42,\"parentId\":43,\"lineIds\":[44],\"amount\":1}", Order.class);
		assertThat(order).isEqualTo(new Order(42, 43L, List.of(44L), 1));
	}

	@Test
	void annotationOnAGetterAndOnASetApplies() {
		JsonNode json = this.mapper.valueToTree(new Bean());
		assertThat(json.get("id").asString()).isEqualTo(Long.toString(ID));
		assertThat(json.get("tags").get(0).isString()).isTrue();
	}

	record Order(@IdAsString long id, @IdAsString Long parentId, @IdAsString List<Long> lineIds, long amount) {
	}

	static class Bean {

		@IdAsString
		public long getId() {
			return ID;
		}

		@IdAsString
		public Set<Long> getTags() {
			return Set.of(ID);
		}

	}

}
