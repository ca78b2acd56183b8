/**
 * Relational-database stores over plain JDBC (MySQL/MariaDB, PostgreSQL, H2): Leaf-compatible segment allocation in
 * {@code leaf_alloc} and worker-ID leases in {@code id_worker_lease}, with the schema scripts that create them.
 */
@NullMarked
package io.idstarter.store.jdbc;

import org.jspecify.annotations.NullMarked;
