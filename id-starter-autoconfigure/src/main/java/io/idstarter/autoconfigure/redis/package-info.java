/**
 * Redis stores for worker-ID leases and segments, on the application's {@code RedisConnectionFactory}.
 */
@NullMarked
package io.idstarter.autoconfigure.redis;

import org.jspecify.annotations.NullMarked;
