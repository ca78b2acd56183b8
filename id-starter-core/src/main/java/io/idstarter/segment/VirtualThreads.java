package io.idstarter.segment;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Tells virtual threads apart on JDK 21 and later, from code compiled for Java 17.
 */
final class VirtualThreads {

	/** {@code Thread.isVirtual()} where it exists, otherwise a handle that always answers {@code false}. */
	private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

	private VirtualThreads() {
	}

	static boolean isVirtual(Thread thread) {
		try {
			return (boolean) IS_VIRTUAL.invokeExact(thread);
		}
		catch (Throwable ex) {
			throw new IllegalStateException("Thread.isVirtual() failed", ex);
		}
	}

	private static MethodHandle isVirtualHandle() {
		try {
			return MethodHandles.publicLookup()
				.findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
		}
		catch (NoSuchMethodException | IllegalAccessException ex) {
			return MethodHandles.dropArguments(MethodHandles.constant(boolean.class, false), 0, Thread.class);
		}
	}

}
