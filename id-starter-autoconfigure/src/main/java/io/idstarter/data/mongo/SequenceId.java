package io.idstarter.data.mongo;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Fills the annotated field of a Spring Data MongoDB entity with the next value of a sequence when the entity is
 * saved and the field is unset ({@code null}, or {@code 0} for a number, or empty for a string): per-collection
 * auto-increment keys.
 * <pre class="code">
 * &#64;Document("sys_user")
 * class User {
 *     &#64;Id
 *     &#64;SequenceId
 *     Long id;
 * }
 * </pre>
 * The sequence is named after the collection the entity is written to, unless {@link #sequence()} names another.
 * Values come in the order and with the step the sequence defines in the store (seed 000's
 * {@code start/end/step/current} record); with a batch size of 1 (the default) they have no gaps except where a save
 * fails after drawing its value. A sequence the store does not have yet is created from {@link #start()},
 * {@link #step()} and {@link #batchSize()}; these attributes do not change an existing sequence.
 *
 * <p>The field may be a {@code long}, {@code int} (or their wrappers), {@code BigInteger} or {@code String}. Works
 * for the blocking {@code MongoTemplate} and repositories.
 *
 * @since 0.1.0
 */
@Target({ ElementType.FIELD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface SequenceId {

	/**
	 * The sequence to draw from; empty (the default) for the name of the collection the entity is written to.
	 * @return the sequence name
	 */
	String sequence() default "";

	/**
	 * Whether to create the sequence when the store does not have it.
	 * @return {@code true} to create it on first use (the default), {@code false} to fail
	 */
	boolean create() default true;

	/**
	 * First value of a sequence created on first use. At least 1, because 0 means "unset".
	 * @return the first value
	 */
	long start() default 1;

	/**
	 * Difference between consecutive values of a sequence created on first use.
	 * @return the step, at least 1
	 */
	long step() default 1;

	/**
	 * Values a process takes from the store at once for a sequence created on first use; above 1 the values of
	 * several processes interleave and stopped processes leave gaps.
	 * @return the batch size, at least 1
	 */
	int batchSize() default 1;

}
