/**
 * Leaf-style segment IDs: ranges allocated per key from a {@link io.idstarter.segment.SegmentStore} and served from
 * memory through a double buffer.
 */
@NullMarked
package io.idstarter.segment;

import org.jspecify.annotations.NullMarked;
