package io.idstarter.hibernate;

import java.lang.reflect.Member;

import io.idstarter.IdWorker;
import io.idstarter.autoconfigure.SegmentKeysCheck;
import io.idstarter.segment.SegmentIdGenerator;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.GeneratorCreationContext;

import org.springframework.beans.factory.BeanFactory;

/**
 * Hibernate generator behind {@link SegmentGeneratedId}: takes IDs of one key from the {@link SegmentIdGenerator}
 * bean.
 *
 * @since 0.1.0
 */
public class SegmentIdentifierGenerator extends IdWorkerIdentifierGenerator
		implements AnnotationBasedGenerator<SegmentGeneratedId> {

	private static final long serialVersionUID = 1L;

	private String key = "";

	/**
	 * Hibernate 7.2 (Spring Boot 4.0) calls only this form; later versions call the one without the member, which
	 * this form passes on to.
	 */
	@Override
	@SuppressWarnings("removal")
	public void initialize(SegmentGeneratedId annotation, Member member, GeneratorCreationContext context) {
		initialize(annotation, context);
	}

	/**
	 * Initializes the generator. Overrides Hibernate's method of this signature since 7.3; no {@code @Override}, so
	 * that it compiles against Hibernate 7.2 too.
	 * @param annotation the annotation on the ID attribute
	 * @param context what Hibernate knows of the attribute
	 */
	public void initialize(SegmentGeneratedId annotation, GeneratorCreationContext context) {
		initialize("SegmentGeneratedId", context);
		this.key = annotation.key();
		BeanFactory beans = beanFactory();
		if (!this.key.isEmpty() && beans != null) {
			// Checked once every bean exists, so that a missing key stops the start, not the first insert.
			beans.getBeanProvider(SegmentKeysCheck.class).ifAvailable((check) -> check.require(this.key, attribute()));
		}
	}

	@Override
	protected Class<? extends IdWorker> workerType() {
		return SegmentIdGenerator.class;
	}

	@Override
	protected String missingWorkerHint() {
		return "enable segment mode (@EnableIdWorker(mode = SEGMENT))";
	}

	@Override
	protected long nextId(IdWorker worker) {
		return this.key.isEmpty() ? worker.nextId() : worker.nextId(this.key);
	}

}
