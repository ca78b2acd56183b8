/**
 * MongoDB stores for worker-ID leases and segments, on the application's {@code MongoOperations}.
 */
@NullMarked
package io.idstarter.autoconfigure.mongo;

import org.jspecify.annotations.NullMarked;
