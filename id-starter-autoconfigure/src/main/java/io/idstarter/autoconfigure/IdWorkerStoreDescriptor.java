package io.idstarter.autoconfigure;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What id-starter needs to know about a store to select, explain and advertise it, written as plain strings: class
 * names, artifact names and sentences. Reading a descriptor never loads the store's library, so every descriptor can
 * be read on any class path, to list the stores in a message or to tell which store a failing class belongs to.
 *
 * <p>Each store has one implementation in its own auto-configuration package (public, with a public no-argument
 * constructor), and the {@link IdWorkerMode} constant of its Snowflake mode names it; a store that holds segments also
 * has a constant in {@link IdWorkerStore}, which is what {@code id-worker.segment.store} binds to. The
 * {@code @EnableIdWorker} selector, the failure analyzers, the store lists of messages and the native-image hints are
 * computed from the descriptors.
 *
 * @since 0.1.0
 */
public interface IdWorkerStoreDescriptor {

	/**
	 * Returns the store's name in properties: the value of {@code id-worker.segment.store} and the group of its
	 * settings, such as {@code redis} for {@code id-worker.redis.*}.
	 * @return a lower-case name
	 */
	String name();

	/**
	 * Returns the store for people, as in "leased from Redis".
	 * @return a short description
	 */
	String description();

	/**
	 * Returns the package of the store's classes in id-starter-core, by which a failing store bean is recognised.
	 * @return a package name, such as {@code io.idstarter.store.redis}
	 */
	String corePackage();

	/**
	 * Returns the classes of id-starter-core that belong to this store although another store shares its
	 * {@link #corePackage() core package}; a class named here is recognised as this store's before any package is.
	 * @return fully qualified class names; none by default
	 */
	default List<String> coreClasses() {
		return List.of();
	}

	/**
	 * Returns the type of the application bean the store works through.
	 * @return a fully qualified class name
	 */
	String beanType();

	/**
	 * Returns a class that is on the class path when the store's libraries are.
	 * @return a fully qualified class name; by default the {@link #beanType() bean type}
	 */
	default String requiredClass() {
		return beanType();
	}

	/**
	 * Returns the dependencies an application adds to use the store, for messages.
	 * @return artifact names, such as {@code spring-boot-starter-data-redis}
	 */
	String dependency();

	/**
	 * Returns the key, in id-starter's built versions, of the version of {@link #dependency()} when id-starter-bom
	 * manages it (a client that Spring Boot does not manage).
	 * @return a key such as {@code curator.version}, or {@code null} when Spring Boot manages the dependency
	 */
	default @Nullable String managedVersionKey() {
		return null;
	}

	/**
	 * Returns the property that points the store at its server, for messages.
	 * @return one or more property names
	 */
	String connectionProperty();

	/**
	 * Returns what to check when the store failed at start: its connection settings and what it needs there.
	 * @return one or more sentences
	 */
	String failureAction();

	/**
	 * Returns what to check when the store failed at start with the given failure, which may name what failed (a
	 * table, a sequence) more precisely than {@link #failureAction()} can.
	 * @param failure the store's exception
	 * @return one or more sentences; {@link #failureAction()} by default
	 */
	default String failureAction(Throwable failure) {
		return failureAction();
	}

	/**
	 * Returns the configuration that defines the store's {@code ISequenceManager} for its Snowflake mode.
	 * @return a fully qualified class name, or {@code null} when the store holds no worker-ID leases
	 */
	@Nullable String leaseConfiguration();

	/**
	 * Returns the configuration that defines the store's {@code SegmentStore} when
	 * {@code id-worker.segment.store} names it.
	 * @return a fully qualified class name, or {@code null} when the store holds no segments
	 */
	default @Nullable String segmentConfiguration() {
		return null;
	}

	/**
	 * Returns the class-path resources the store reads at run time, for native images.
	 * @return resource patterns, such as {@code io/idstarter/store/redis/*.lua}
	 */
	default List<String> resourcePatterns() {
		return List.of();
	}

}
