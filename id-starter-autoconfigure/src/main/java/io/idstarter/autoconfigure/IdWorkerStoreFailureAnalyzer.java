package io.idstarter.autoconfigure;

import java.sql.SQLException;

import io.idstarter.IdGenerationException;
import io.idstarter.lease.ISequenceManager;
import io.idstarter.lease.LeaseStoreException;
import io.idstarter.segment.SegmentStore;
import io.idstarter.segment.SegmentStoreException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link LeaseStoreException} or {@link SegmentStoreException} at start-up: the store could not be reached,
 * or is not set up. The exception's message names the store and what failed; the action is that store's own
 * ({@link IdWorkerStoreDescriptor#failureAction()}), found by the package of the failing store bean's class.
 */
class IdWorkerStoreFailureAnalyzer extends AbstractFailureAnalyzer<IdGenerationException> {

	private static final String OTHER = "Check the store behind the application's %s bean: the message above says "
			+ "what failed.";

	private final @Nullable BeanFactory beanFactory;

	IdWorkerStoreFailureAnalyzer(@Nullable BeanFactory beanFactory) {
		this.beanFactory = beanFactory;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, IdGenerationException cause) {
		if (cause instanceof LeaseStoreException) {
			return new FailureAnalysis("The worker-ID lease store failed while the Snowflake generator started: "
					+ cause.getMessage(), action(cause, ISequenceManager.class), cause);
		}
		if (cause instanceof SegmentStoreException) {
			return new FailureAnalysis("The segment store failed while the segment generator read its keys: "
					+ cause.getMessage(), action(cause, SegmentStore.class), cause);
		}
		return null;
	}

	private String action(Throwable cause, Class<?> storeType) {
		String storeClass = storeClassName(storeType);
		IdWorkerStoreDescriptor store = (storeClass != null) ? IdWorkerStores.owning(storeClass) : owningCause(cause);
		if (store == null && hasSqlCause(cause)) {
			store = IdWorkerStores.named("jdbc");
		}
		return (store != null) ? store.failureAction(cause) : String.format(OTHER, storeType.getSimpleName());
	}

	/**
	 * Returns the store whose exception class is in the chain (a store's own exception, such as that of the sequence
	 * store), when no single store bean says which store failed.
	 */
	private static @Nullable IdWorkerStoreDescriptor owningCause(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			IdWorkerStoreDescriptor store = IdWorkerStores.owning(cause.getClass().getName());
			if (store != null) {
				return store;
			}
		}
		return null;
	}

	/**
	 * Returns the class of the single store bean of a type, read from its definition (the context failed: no bean is
	 * created here).
	 */
	private @Nullable String storeClassName(Class<?> storeType) {
		if (!(this.beanFactory instanceof ListableBeanFactory beans)) {
			return null;
		}
		String[] names = beans.getBeanNamesForType(storeType, true, false);
		if (names.length != 1) {
			return null;
		}
		Class<?> type = beans.getType(names[0], false);
		return (type != null) ? type.getName() : null;
	}

	private static boolean hasSqlCause(Throwable ex) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (cause instanceof SQLException) {
				return true;
			}
		}
		return false;
	}

}
