/**
 * Small files of node-local state kept beside the worker-ID cache file: their {@code key=number} format and their
 * durable replacement. Internal to id-starter; not an API for applications.
 */
@NullMarked
package io.idstarter.local;

import org.jspecify.annotations.NullMarked;
