package io.idstarter.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Explains a {@link MissingIdWorkerStoreException}: which store the mode needs and what to add to provide it. A
 * missing connection setting is often a mistyped one, so the {@code id-worker.*} keys id-starter does not know are
 * named too, each with the nearest valid key.
 */
class MissingIdWorkerStoreFailureAnalyzer extends AbstractFailureAnalyzer<MissingIdWorkerStoreException> {

	private final @Nullable Environment environment;

	MissingIdWorkerStoreFailureAnalyzer(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, MissingIdWorkerStoreException cause) {
		IdWorkerStoreDescriptor store = cause.getStoreDescriptor();
		String bean = ClassUtils.getShortName(store.beanType());
		List<String> unknownKeys = (this.environment != null)
				? UnknownPropertiesReporter.describeUnknownKeys(this.environment) : List.of();
		String typos = unknownKeys.isEmpty() ? "" : " " + String.join(" ", unknownKeys);
		String action = switch (cause.getProblem()) {
			case LIBRARY_MISSING -> "Add " + dependency(store) + " to the application's dependencies and set "
					+ store.connectionProperty() + ".";
			case BEAN_MISSING -> "Set " + store.connectionProperty() + " so that Spring Boot defines the " + bean
					+ " bean, or define a " + bean + " bean.";
			case BEAN_NOT_UNIQUE -> "Mark one of the " + bean + " beans " + cause.getCandidates()
					+ " as @Primary.";
		};
		return new FailureAnalysis(cause.getMessage() + "." + typos, action + alternatives(cause), cause);
	}

	private String alternatives(MissingIdWorkerStoreException cause) {
		if (cause.getMode() == IdWorkerMode.SEGMENT) {
			return " Alternatively, set id-worker.segment.store to a store the application has ("
					+ otherStores(cause.getStoreDescriptor()) + "), or define a SegmentStore bean.";
		}
		return " Alternatively, choose the mode of a store the application has, or define an ISequenceManager bean"
				+ " that leases worker IDs from a store of your own.";
	}

	private static String otherStores(IdWorkerStoreDescriptor missing) {
		return String.join(" or ", IdWorkerStores.segmentStores()
			.stream()
			.map(IdWorkerStoreDescriptor::name)
			.filter((name) -> !name.equals(missing.name()))
			.toList());
	}

	/**
	 * Returns the dependencies to add; a client Spring Boot does not manage comes with the version id-starter-bom
	 * manages.
	 */
	private static String dependency(IdWorkerStoreDescriptor store) {
		String versionKey = store.managedVersionKey();
		if (versionKey == null) {
			return store.dependency();
		}
		return store.dependency() + ":" + BuiltVersions.get(versionKey) + " (the version id-starter was tested with;"
				+ " importing io.idstarter:id-starter-bom manages it)";
	}

}
