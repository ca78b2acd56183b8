package io.idstarter.segment;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A segment's cursor shares no cache line with another field on the JVM the tests run on: threads claiming from one
 * segment contend for the cursor's line, and must not take the bounds they read after each claim with it.
 */
class SegmentLayoutTests {

	private static final int CACHE_LINE_BYTES = 64;

	@Test
	void theCursorIsACacheLineAwayFromEveryOtherField() throws ReflectiveOperationException {
		long cursor = offsetOf(Segment.class.getDeclaredField("cursor"));
		int others = 0;
		for (Field field : Segment.class.getDeclaredFields()) {
			if (Modifier.isStatic(field.getModifiers()) || field.getName().startsWith("pad")
					|| field.getName().equals("cursor")) {
				continue;
			}
			others++;
			long offset = offsetOf(field);
			long gap = (offset < cursor) ? cursor - offset : offset - cursor;
			assertThat(gap).as("bytes between the cursor (offset %d) and %s (offset %d)", cursor, field.getName(),
					offset)
				.isGreaterThanOrEqualTo(CACHE_LINE_BYTES);
		}
		assertThat(others).as("fields checked").isGreaterThanOrEqualTo(10);
	}

	/** The field's offset in its object, from {@code sun.misc.Unsafe} (looked up, so the build has no warning). */
	private static long offsetOf(Field field) throws ReflectiveOperationException {
		Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
		Field instance = unsafeClass.getDeclaredField("theUnsafe");
		instance.setAccessible(true);
		Method objectFieldOffset = unsafeClass.getMethod("objectFieldOffset", Field.class);
		return (long) objectFieldOffset.invoke(instance.get(null), field);
	}

}
