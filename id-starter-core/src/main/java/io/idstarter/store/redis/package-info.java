/**
 * Redis stores for segments and worker-ID leases, each operation one Lua script; needs Spring Data Redis.
 */
@NullMarked
package io.idstarter.store.redis;

import org.jspecify.annotations.NullMarked;
