/**
 * Worker-ID leases on a ZooKeeper ensemble through Apache Curator, with respect for the worker IDs of a Leaf
 * Snowflake deployment on the same ensemble.
 */
@NullMarked
package io.idstarter.store.zookeeper;

import org.jspecify.annotations.NullMarked;
