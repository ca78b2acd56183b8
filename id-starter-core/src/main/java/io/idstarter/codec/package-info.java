/**
 * Public forms of IDs: a keyed permutation that hides their order and rate, and fixed-width string codecs.
 */
@NullMarked
package io.idstarter.codec;

import org.jspecify.annotations.NullMarked;
