/**
 * Auto-configuration of id-starter: {@link io.idstarter.autoconfigure.EnableIdWorker @EnableIdWorker}, the
 * {@code id-worker.*} properties, the generator configurations and start-up failure analysis.
 */
@NullMarked
package io.idstarter.autoconfigure;

import org.jspecify.annotations.NullMarked;
