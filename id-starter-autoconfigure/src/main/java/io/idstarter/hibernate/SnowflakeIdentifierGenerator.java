package io.idstarter.hibernate;

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

	@Override
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
