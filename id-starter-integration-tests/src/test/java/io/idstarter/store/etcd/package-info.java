/**
 * The etcd lease store against a real three-member cluster.
 */
@NullMarked
package io.idstarter.store.etcd;

import org.jspecify.annotations.NullMarked;
