package io.idstarter.autoconfigure;

import java.util.Arrays;
import java.util.List;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.segment.SegmentStore;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Thrown at start-up when a mode needs a store the application does not provide: the store's library is not on the
 * class path, or the application has no (or no single) bean of the store's connection type, and no
 * {@link ISequenceManager} or {@link SegmentStore} bean of its own either. {@code MissingIdWorkerStoreFailureAnalyzer}
 * turns it into a report that says what to add.
 *
 * @since 0.1.0
 */
public class MissingIdWorkerStoreException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final IdWorkerMode mode;

	private final IdWorkerStoreDescriptor store;

	private final Problem problem;

	private final List<String> candidates;

	MissingIdWorkerStoreException(IdWorkerMode mode, IdWorkerStoreDescriptor store, Problem problem, List<String> candidates) {
		super(describe(mode, store, problem, candidates));
		this.mode = mode;
		this.store = store;
		this.problem = problem;
		this.candidates = List.copyOf(candidates);
	}

	/**
	 * Finds out why a store's configuration did not provide its bean.
	 * @param mode the mode that needs the store
	 * @param store the store
	 * @param beanFactory the application's beans
	 * @return the exception to throw
	 */
	static MissingIdWorkerStoreException diagnose(IdWorkerMode mode, IdWorkerStoreDescriptor store,
			ConfigurableListableBeanFactory beanFactory) {
		ClassLoader classLoader = beanFactory.getBeanClassLoader();
		return diagnose(mode, store, beanFactory,
				(classLoader != null) ? classLoader : MissingIdWorkerStoreException.class.getClassLoader());
	}

	/**
	 * Finds out why a store's configuration did not provide its bean.
	 * @param mode the mode that needs the store
	 * @param store the store
	 * @param beanFactory the application's beans
	 * @param classLoader the application's class loader
	 * @return the exception to throw
	 */
	static MissingIdWorkerStoreException diagnose(IdWorkerMode mode, IdWorkerStoreDescriptor store,
			ListableBeanFactory beanFactory, ClassLoader classLoader) {
		if (!ClassUtils.isPresent(store.requiredClass(), classLoader)
				|| !ClassUtils.isPresent(store.beanType(), classLoader)) {
			return new MissingIdWorkerStoreException(mode, store, Problem.LIBRARY_MISSING, List.of());
		}
		Class<?> type = ClassUtils.resolveClassName(store.beanType(), classLoader);
		List<String> candidates = Arrays
			.asList(BeanFactoryUtils.beanNamesForTypeIncludingAncestors(beanFactory, type, true, false));
		return new MissingIdWorkerStoreException(mode, store,
				candidates.isEmpty() ? Problem.BEAN_MISSING : Problem.BEAN_NOT_UNIQUE, candidates);
	}

	private static String describe(IdWorkerMode mode, IdWorkerStoreDescriptor store, Problem problem, List<String> candidates) {
		String what = (mode == IdWorkerMode.SEGMENT)
				? "@EnableIdWorker(mode = SEGMENT) with id-worker.segment.store="
						+ store.name() + " allocates segments from " + store.description()
				: "@EnableIdWorker(mode = " + mode + ") leases worker IDs from " + store.description();
		return what + ", but " + switch (problem) {
			case LIBRARY_MISSING -> "the library for it is not on the class path (" + store.requiredClass()
					+ " was not found)";
			case BEAN_MISSING -> "the application has no " + store.beanType() + " bean";
			case BEAN_NOT_UNIQUE -> "the application has " + candidates.size() + " " + store.beanType() + " beans "
					+ candidates + " and none of them is primary";
		};
	}

	/**
	 * Returns the mode that needs the store.
	 * @return the mode
	 */
	public IdWorkerMode getMode() {
		return this.mode;
	}

	/**
	 * Returns the store that is missing.
	 * @return the store's descriptor
	 */
	public IdWorkerStoreDescriptor getStoreDescriptor() {
		return this.store;
	}

	/**
	 * Returns the store that is missing, as an {@link IdWorkerStore} constant.
	 * @return the store, or {@code null} for a store that has no constant there
	 * @deprecated since 0.1.0 for removal; use {@link #getStoreDescriptor()}, which every store has
	 */
	@Deprecated(since = "0.1.0", forRemoval = true)
	public @Nullable IdWorkerStore getStore() {
		return IdWorkerStore.of(this.store);
	}

	/**
	 * Returns what is missing.
	 * @return the problem
	 */
	public Problem getProblem() {
		return this.problem;
	}

	/**
	 * Returns the beans of the store's connection type.
	 * @return the bean names; empty unless the problem is {@link Problem#BEAN_NOT_UNIQUE}
	 */
	public List<String> getCandidates() {
		return this.candidates;
	}

	/**
	 * Why a store is missing.
	 */
	public enum Problem {

		/**
		 * The store's library is not on the class path.
		 */
		LIBRARY_MISSING,

		/**
		 * The application has no bean of the store's connection type.
		 */
		BEAN_MISSING,

		/**
		 * The application has several beans of the store's connection type and none is primary.
		 */
		BEAN_NOT_UNIQUE

	}

}
