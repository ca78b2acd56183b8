/**
 * Relational-database stores for worker-ID leases and segments, on the application's {@code DataSource}.
 */
@NullMarked
package io.idstarter.autoconfigure.jdbc;

import org.jspecify.annotations.NullMarked;
