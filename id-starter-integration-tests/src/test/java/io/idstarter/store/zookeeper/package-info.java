/**
 * The ZooKeeper lease store against a real three-member ensemble, and Leaf Snowflake's worker IDs on it.
 */
@NullMarked
package io.idstarter.store.zookeeper;

import org.jspecify.annotations.NullMarked;
