/**
 * One application of the start-up benchmark; see {@link io.idstarter.startup.StartupBenchmark}.
 */
@NullMarked
package io.idstarter.startup.bare;

import org.jspecify.annotations.NullMarked;
