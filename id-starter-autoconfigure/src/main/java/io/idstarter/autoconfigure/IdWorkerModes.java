package io.idstarter.autoconfigure;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.type.AnnotationMetadata;

/**
 * The modes named by {@link EnableIdWorker @EnableIdWorker}, in the order given; registered as a bean so that other
 * configurations (and the actuator endpoint) can tell which generators the application asked for.
 *
 * @since 0.1.0
 */
public final class IdWorkerModes {

	private final List<IdWorkerMode> modes;

	private final String source;

	IdWorkerModes(List<IdWorkerMode> modes, String source) {
		this.modes = List.copyOf(modes);
		this.source = source;
	}

	/**
	 * Reads and checks the modes of an {@link EnableIdWorker @EnableIdWorker} class.
	 * @param metadata the annotated class
	 * @return the modes, duplicates removed
	 * @throws IllegalStateException if no mode, or more than one Snowflake mode, is named
	 */
	static IdWorkerModes of(AnnotationMetadata metadata) {
		MergedAnnotation<EnableIdWorker> annotation = metadata.getAnnotations().get(EnableIdWorker.class);
		String source = metadata.getClassName();
		if (!annotation.isPresent()) {
			throw new IllegalStateException(source + " is not annotated with @EnableIdWorker");
		}
		List<IdWorkerMode> modes = new ArrayList<>();
		for (IdWorkerMode mode : annotation.getEnumArray("mode", IdWorkerMode.class)) {
			if (!modes.contains(mode)) {
				modes.add(mode);
			}
		}
		if (modes.isEmpty()) {
			throw new IllegalStateException("@EnableIdWorker on " + source
					+ " names no mode: set mode = " + IdWorkerMode.names((mode) -> true)
					+ " (or SEGMENT and one of the others)");
		}
		List<IdWorkerMode> snowflakeModes = modes.stream().filter(IdWorkerMode::isSnowflake).toList();
		if (snowflakeModes.size() > 1) {
			throw new IllegalStateException("@EnableIdWorker on " + source + " names " + snowflakeModes.size()
					+ " Snowflake modes " + snowflakeModes
					+ ": an application holds one worker ID, leased from one store; keep one of them");
		}
		return new IdWorkerModes(modes, source);
	}

	/**
	 * Returns the modes in the order {@code @EnableIdWorker} names them.
	 * @return the modes, at least one
	 */
	public List<IdWorkerMode> modes() {
		return Collections.unmodifiableList(this.modes);
	}

	/**
	 * Returns the mode whose generator is the primary {@code IdWorker}.
	 * @return the first mode
	 */
	public IdWorkerMode primary() {
		return this.modes.get(0);
	}

	/**
	 * Returns the Snowflake mode.
	 * @return the Snowflake mode ({@link IdWorkerMode#DB}, {@link IdWorkerMode#REDIS}, ...), or {@code null}
	 * when only segments are on
	 */
	public @Nullable IdWorkerMode snowflake() {
		return this.modes.stream().filter(IdWorkerMode::isSnowflake).findFirst().orElse(null);
	}

	/**
	 * Returns whether segment IDs are on.
	 * @return whether {@link IdWorkerMode#SEGMENT} is named
	 */
	public boolean segment() {
		return this.modes.contains(IdWorkerMode.SEGMENT);
	}

	/**
	 * Returns the class annotated with {@code @EnableIdWorker}, for messages.
	 * @return a fully qualified class name
	 */
	public String source() {
		return this.source;
	}

	@Override
	public String toString() {
		return this.modes.stream().map(Enum::name).collect(Collectors.joining(", ", "[", "]"));
	}

}
