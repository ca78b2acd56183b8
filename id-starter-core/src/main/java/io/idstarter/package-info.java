/**
 * The {@link io.idstarter.IdWorker} contract shared by every generator.
 */
@NullMarked
package io.idstarter;

import org.jspecify.annotations.NullMarked;
