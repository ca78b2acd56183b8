/**
 * The fleet API: applications in client mode draw segment ranges and lease worker IDs from this server, which
 * passes the calls to its own store.
 */
@NullMarked
package io.idstarter.sample.fleet;

import org.jspecify.annotations.NullMarked;
