/**
 * Client mode: the segment store and the worker-ID lease store over HTTP, from the ID servers.
 */
@NullMarked
package io.idstarter.autoconfigure.http;

import org.jspecify.annotations.NullMarked;
