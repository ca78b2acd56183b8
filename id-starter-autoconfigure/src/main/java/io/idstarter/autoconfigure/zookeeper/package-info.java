/**
 * Worker-ID leases on a ZooKeeper ensemble, through a Curator client the application defines or one built from
 * {@code id-worker.zookeeper.*}.
 */
@NullMarked
package io.idstarter.autoconfigure.zookeeper;

import org.jspecify.annotations.NullMarked;
