/**
 * The Kubernetes lease store against a real cluster when one is named, otherwise the fabric8 in-JVM API server.
 */
@NullMarked
package io.idstarter.store.kubernetes;

import org.jspecify.annotations.NullMarked;
