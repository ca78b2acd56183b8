package io.idstarter.hibernate;

import java.lang.reflect.Member;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;
import io.idstarter.snowflake.SnowflakeIdGenerator;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.GeneratorCreationContext;

/**
 * Hibernate generator behind {@link SnowflakeGeneratedId}: takes IDs from the {@link SnowflakeIdGenerator} bean.
 *
 * @since 0.1.0
 */
public class SnowflakeIdentifierGenerator extends IdWorkerIdentifierGenerator
		implements AnnotationBasedGenerator<SnowflakeGeneratedId> {

	private static final long serialVersionUID = 1L;

	/**
	 * Hibernate 7.2 (Spring Boot 4.0) calls only this form; later versions call the one without the member, which
	 * this form passes on to.
	 */
	@Override
	@SuppressWarnings("removal")
	public void initialize(SnowflakeGeneratedId annotation, Member member, GeneratorCreationContext context) {
		initialize(annotation, context);
	}

	/**
	 * Initializes the generator. Overrides Hibernate's method of this signature since 7.3; no {@code @Override}, so
	 * that it compiles against Hibernate 7.2 too.
	 * @param annotation the annotation on the ID attribute
	 * @param context what Hibernate knows of the attribute
	 */
	public void initialize(SnowflakeGeneratedId annotation, GeneratorCreationContext context) {
		initialize("SnowflakeGeneratedId", context);
	}

	@Override
	protected Class<? extends IdWorker> workerType() {
		return SnowflakeIdGenerator.class;
	}

	@Override
	protected String missingWorkerHint() {
		return "enable a Snowflake mode (@EnableIdWorker(mode = " + IdWorkerMode.names(IdWorkerMode::isSnowflake)
				+ "))";
	}

	@Override
	protected long nextId(IdWorker worker) {
		return worker.nextId();
	}

}
