package io.idstarter.sequence;

import java.util.List;
import java.util.function.Supplier;

import io.idstarter.hibernate.SegmentGeneratedId;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;

/**
 * The entities {@link SequenceInsertLoad} inserts, one class per family and step (an {@code allocationSize} must be a
 * constant): the Hibernate family takes its IDs from a {@code @SequenceGenerator} (the application chooses
 * {@code pooled} or {@code pooled-lo} with {@code hibernate.id.optimizer.pooled.preferred}), the id-starter family from
 * {@code @SegmentGeneratedId} over the key {@code entity<step>}, whose sequence id-starter creates with that step. Each
 * application inserts into tables of its own schema, so both families map the same table names.
 */
final class InsertedEntities {

	/** The steps there are entity classes for: Hibernate's default allocationSize, and a larger one. */
	static final List<Integer> STEPS = List.of(50, 1000);

	private InsertedEntities() {
	}

	/** Returns the classes of one family, for the application's persistence unit. */
	static List<Class<?>> classes(boolean segment) {
		return segment ? List.of(Segment50.class, Segment1000.class) : List.of(Hibernate50.class, Hibernate1000.class);
	}

	/** Returns a factory of new entities of one family and step. */
	static Supplier<Object> factory(boolean segment, int step) {
		return switch (step) {
			case 50 -> segment ? Segment50::new : Hibernate50::new;
			case 1000 -> segment ? Segment1000::new : Hibernate1000::new;
			default -> throw new IllegalArgumentException("steps must be among " + STEPS + ", not " + step);
		};
	}

	/** A Hibernate entity on a sequence of INCREMENT BY 50. */
	@Entity(name = "Hibernate50")
	@Table(name = "entity_50")
	public static class Hibernate50 {

		@Id
		@GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "entity_50")
		@SequenceGenerator(name = "entity_50", sequenceName = "entity_50_seq", allocationSize = 50)
		private Long id;

		private String name = "entity";

	}

	/** A Hibernate entity on a sequence of INCREMENT BY 1000. */
	@Entity(name = "Hibernate1000")
	@Table(name = "entity_1000")
	public static class Hibernate1000 {

		@Id
		@GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "entity_1000")
		@SequenceGenerator(name = "entity_1000", sequenceName = "entity_1000_seq", allocationSize = 1000)
		private Long id;

		private String name = "entity";

	}

	/** An id-starter entity on key {@code entity50}: sequence {@code id_seq_entity50}, INCREMENT BY 50. */
	@Entity(name = "Segment50")
	@Table(name = "entity_50")
	public static class Segment50 {

		@Id
		@SegmentGeneratedId(key = "entity50")
		private Long id;

		private String name = "entity";

	}

	/** An id-starter entity on key {@code entity1000}: sequence {@code id_seq_entity1000}, INCREMENT BY 1000. */
	@Entity(name = "Segment1000")
	@Table(name = "entity_1000")
	public static class Segment1000 {

		@Id
		@SegmentGeneratedId(key = "entity1000")
		private Long id;

		private String name = "entity";

	}

}
