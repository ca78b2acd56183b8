/**
 * MongoDB stores: segment ranges ({@link io.idstarter.store.mongo.MongoSegmentStore}), worker-ID leases
 * ({@link io.idstarter.store.mongo.MongoLeaseStore}), sequences
 * ({@link io.idstarter.store.mongo.MongoSequenceService}) and cyclic sequences
 * ({@link io.idstarter.store.mongo.MongoCyclicSequence}), each built on atomic single-document updates through Spring
 * Data MongoDB's {@code MongoOperations}.
 */
@NullMarked
package io.idstarter.store.mongo;

import org.jspecify.annotations.NullMarked;
