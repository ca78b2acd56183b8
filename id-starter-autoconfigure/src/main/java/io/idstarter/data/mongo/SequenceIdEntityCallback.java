package io.idstarter.data.mongo;

import java.lang.reflect.Field;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

import io.idstarter.sequence.SequenceDefinition;
import io.idstarter.sequence.SequenceService;
import io.idstarter.sequence.UnknownSequenceException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.convert.ConversionService;
import org.springframework.core.convert.support.DefaultConversionService;
import org.springframework.data.mapping.PersistentPropertyAccessor;
import org.springframework.data.mapping.context.MappingContext;
import org.springframework.data.mongodb.core.mapping.MongoPersistentEntity;
import org.springframework.data.mongodb.core.mapping.MongoPersistentProperty;
import org.springframework.data.mongodb.core.mapping.event.BeforeConvertCallback;
import org.springframework.util.ReflectionUtils;

/**
 * Fills the {@link SequenceId @SequenceId} field of an entity that is about to be saved, when it is unset, with the
 * next value of its sequence. Register it as a bean; Spring Data calls it before it converts an entity to a document.
 *
 * @since 0.1.0
 */
public class SequenceIdEntityCallback implements BeforeConvertCallback<Object> {

	private final Supplier<? extends SequenceService> sequencesSupplier;

	/** The sequence service, taken from the supplier on first use. */
	private volatile @Nullable SequenceService sequences;

	private final MappingContext<? extends MongoPersistentEntity<?>, MongoPersistentProperty> mappingContext;

	private final ConversionService conversionService = DefaultConversionService.getSharedInstance();

	/** The {@code @SequenceId} property of each class, if it has one; computed once per class. */
	private final ClassValue<Optional<Target>> targets = new ClassValue<>() {

		@Override
		protected Optional<Target> computeValue(Class<?> type) {
			return resolve(type);
		}

	};

	/**
	 * Creates the callback.
	 * @param sequences where the values come from
	 * @param mappingContext the MongoDB mapping context, to read and write the field as Spring Data does
	 */
	public SequenceIdEntityCallback(SequenceService sequences,
			MappingContext<? extends MongoPersistentEntity<?>, MongoPersistentProperty> mappingContext) {
		this(() -> sequences, mappingContext);
		Objects.requireNonNull(sequences, "sequences");
	}

	/**
	 * Creates a callback that gets its sequence service on first use. Spring Data's converter looks up the entity
	 * callbacks when it is created, before the {@code MongoTemplate} a MongoDB sequence service needs exists.
	 * @param sequences supplies where the values come from; called once, at the first save of an entity with a
	 * {@code @SequenceId}
	 * @param mappingContext the MongoDB mapping context, to read and write the field as Spring Data does
	 */
	public SequenceIdEntityCallback(Supplier<? extends SequenceService> sequences,
			MappingContext<? extends MongoPersistentEntity<?>, MongoPersistentProperty> mappingContext) {
		this.sequencesSupplier = Objects.requireNonNull(sequences, "sequences");
		this.mappingContext = Objects.requireNonNull(mappingContext, "mappingContext");
	}

	@Override
	public Object onBeforeConvert(Object entity, String collection) {
		Target target = this.targets.get(entity.getClass()).orElse(null);
		if (target == null) {
			return entity;
		}
		MongoPersistentProperty property = target.property();
		SequenceId annotation = target.annotation();
		PersistentPropertyAccessor<Object> accessor = target.entity().getPropertyAccessor(entity);
		if (!isUnset(accessor.getProperty(property))) {
			return entity;
		}
		String sequence = annotation.sequence().isEmpty() ? collection : annotation.sequence();
		long value = next(sequence, annotation);
		if (value == 0) {
			throw new IllegalStateException("Sequence '" + sequence + "' issued 0 for " + describe(property)
					+ ", which cannot be told from an unset field; start the sequence at 1 or above");
		}
		accessor.setProperty(property, this.conversionService.convert(value, property.getType()));
		return accessor.getBean();
	}

	private long next(String sequence, SequenceId annotation) {
		SequenceService sequences = sequences();
		try {
			return sequences.next(sequence);
		}
		catch (UnknownSequenceException ex) {
			if (!annotation.create()) {
				throw ex;
			}
			// Another process may create it first: then create() leaves that definition alone and we draw from it.
			sequences.create(new SequenceDefinition(sequence, annotation.start(), Long.MAX_VALUE, annotation.step(),
					annotation.batchSize()));
			return sequences.next(sequence);
		}
	}

	private SequenceService sequences() {
		SequenceService sequences = this.sequences;
		if (sequences == null) {
			sequences = Objects.requireNonNull(this.sequencesSupplier.get(), "sequence service");
			this.sequences = sequences;
		}
		return sequences;
	}

	private static boolean isUnset(@Nullable Object value) {
		if (value instanceof Number number) {
			return number.longValue() == 0;
		}
		return (value instanceof CharSequence text) ? text.isEmpty() : value == null;
	}

	private Optional<Target> resolve(Class<?> type) {
		Field field = findAnnotatedField(type);
		if (field == null) {
			return Optional.empty();
		}
		SequenceId annotation = AnnotatedElementUtils.findMergedAnnotation(field, SequenceId.class);
		Objects.requireNonNull(annotation, "annotation");
		MongoPersistentEntity<?> entity = this.mappingContext.getRequiredPersistentEntity(type);
		MongoPersistentProperty property = entity.getPersistentProperty(field.getName());
		if (property == null) {
			throw new IllegalStateException("@SequenceId on " + type.getName() + "." + field.getName()
					+ " is not on a property Spring Data maps (transient?); put it on a persisted field");
		}
		check(annotation, property);
		return Optional.of(new Target(entity, property, annotation));
	}

	private static @Nullable Field findAnnotatedField(Class<?> type) {
		Field[] found = new Field[1];
		ReflectionUtils.doWithFields(type, (field) -> {
			if (found[0] != null) {
				throw new IllegalStateException("@SequenceId is on two fields of " + type.getName() + ": "
						+ found[0].getName() + " and " + field.getName() + "; an entity has one sequence ID");
			}
			found[0] = field;
		}, (field) -> AnnotatedElementUtils.hasAnnotation(field, SequenceId.class));
		return found[0];
	}

	private void check(SequenceId annotation, MongoPersistentProperty property) {
		Class<?> type = property.getType();
		if (!this.conversionService.canConvert(Long.class, type) || type == Object.class || type == Boolean.class
				|| type == boolean.class) {
			throw new IllegalStateException("@SequenceId on " + describe(property) + " needs a long, int, BigInteger "
					+ "or String field, found " + type.getName());
		}
		if (annotation.start() < 1) {
			throw new IllegalStateException("@SequenceId(start = " + annotation.start() + ") on "
					+ describe(property) + ": start must be at least 1, because 0 means the field is unset");
		}
		if (annotation.step() < 1 || annotation.batchSize() < 1) {
			throw new IllegalStateException("@SequenceId(step = " + annotation.step() + ", batchSize = "
					+ annotation.batchSize() + ") on " + describe(property) + ": both must be at least 1");
		}
	}

	private static String describe(MongoPersistentProperty property) {
		return property.getOwner().getType().getName() + "." + property.getName();
	}

	private record Target(MongoPersistentEntity<?> entity, MongoPersistentProperty property, SequenceId annotation) {
	}

}
