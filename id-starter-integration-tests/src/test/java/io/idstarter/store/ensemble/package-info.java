/**
 * The lease contract as stores on coordination services (ZooKeeper, etcd) keep it, against real ensembles.
 */
@NullMarked
package io.idstarter.store.ensemble;

import org.jspecify.annotations.NullMarked;
