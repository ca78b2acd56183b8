/**
 * A runnable ID server built on id-starter: Leaf-compatible HTTP API, batch and decode endpoints, a monitor page, and
 * an admin API for segment keys.
 */
@NullMarked
package io.idstarter.sample;

import org.jspecify.annotations.NullMarked;
