package io.idstarter.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.util.ClassUtils;

/**
 * The stores id-starter knows: the descriptors named by the {@link IdWorkerMode} constants and {@link IdWorkerStore}
 * constants, each read once. Every list of stores, store configuration or store-specific advice is computed here, so
 * that a store added in its own package appears everywhere without a central switch.
 */
final class IdWorkerStores {

	/** Descriptors by class name, each created once: a store is compared by identity. */
	private static final Map<String, IdWorkerStoreDescriptor> LOADED = new ConcurrentHashMap<>();

	private IdWorkerStores() {
	}

	/**
	 * Reads a descriptor by its class name.
	 * @param className a class that implements {@link IdWorkerStoreDescriptor}
	 * @return the descriptor
	 */
	static IdWorkerStoreDescriptor load(String className) {
		return LOADED.computeIfAbsent(className, (name) -> {
			Class<?> type = ClassUtils.resolveClassName(name, IdWorkerStores.class.getClassLoader());
			if (!IdWorkerStoreDescriptor.class.isAssignableFrom(type)) {
				throw new IllegalStateException(name + " names a store but does not implement "
						+ IdWorkerStoreDescriptor.class.getName());
			}
			return (IdWorkerStoreDescriptor) BeanUtils.instantiateClass(type);
		});
	}

	/**
	 * Returns every store, in the order of the modes and then of {@link IdWorkerStore}, each once.
	 * @return the descriptors by name
	 */
	static List<IdWorkerStoreDescriptor> all() {
		Map<String, IdWorkerStoreDescriptor> stores = new LinkedHashMap<>();
		for (IdWorkerMode mode : IdWorkerMode.values()) {
			IdWorkerStoreDescriptor store = mode.store();
			if (store != null) {
				stores.putIfAbsent(store.name(), store);
			}
		}
		for (IdWorkerStore store : IdWorkerStore.values()) {
			stores.putIfAbsent(store.descriptor().name(), store.descriptor());
		}
		return new ArrayList<>(stores.values());
	}

	/**
	 * Returns the stores that hold segments ({@code id-worker.segment.store}).
	 * @return the descriptors
	 */
	static List<IdWorkerStoreDescriptor> segmentStores() {
		return all().stream().filter((store) -> store.segmentConfiguration() != null).toList();
	}

	/**
	 * Lists store names for messages, such as {@code 'jdbc', 'redis' or 'mongo'}.
	 * @param which the stores to list
	 * @return the quoted names, the last two joined by "or"
	 */
	static String names(Predicate<IdWorkerStoreDescriptor> which) {
		List<String> names = all().stream().filter(which).map((store) -> "'" + store.name() + "'").toList();
		if (names.size() < 2) {
			return String.join("", names);
		}
		return String.join(", ", names.subList(0, names.size() - 1)) + " or " + names.get(names.size() - 1);
	}

	/**
	 * Returns the store a class of id-starter-core belongs to: the one that lists it among its
	 * {@link IdWorkerStoreDescriptor#coreClasses() core classes}, otherwise the one whose core package holds it.
	 * @param className a class name, such as that of a failing store bean
	 * @return the store, or {@code null}
	 */
	static @Nullable IdWorkerStoreDescriptor owning(String className) {
		for (IdWorkerStoreDescriptor store : all()) {
			if (store.coreClasses().contains(className)) {
				return store;
			}
		}
		for (IdWorkerStoreDescriptor store : all()) {
			if (className.startsWith(store.corePackage() + ".")) {
				return store;
			}
		}
		return null;
	}

	/**
	 * Returns a store by name.
	 * @param name the store's name, such as {@code jdbc}
	 * @return the store
	 * @throws IllegalArgumentException if no store has the name
	 */
	static IdWorkerStoreDescriptor named(String name) {
		for (IdWorkerStoreDescriptor store : all()) {
			if (store.name().equals(name)) {
				return store;
			}
		}
		throw new IllegalArgumentException("No id-starter store is named '" + name + "'; the stores are "
				+ names((store) -> true));
	}

}
