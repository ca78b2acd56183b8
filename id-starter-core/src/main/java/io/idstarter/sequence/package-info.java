/**
 * Store-independent sequences: per-name auto-increment values ({@link io.idstarter.sequence.SequenceService}),
 * cyclic sequences that wrap to 0 ({@link io.idstarter.sequence.CyclicSequence}) and the time-prefixed IDs built on
 * them ({@link io.idstarter.sequence.TimePrefixedIdGenerator}).
 */
@NullMarked
package io.idstarter.sequence;

import org.jspecify.annotations.NullMarked;
