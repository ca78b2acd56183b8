/**
 * What an application pays at start for id-starter: one application per mode and the same application without it,
 * started in fresh JVMs by {@link io.idstarter.startup.StartupBenchmark}.
 */
@NullMarked
package io.idstarter.startup;

import org.jspecify.annotations.NullMarked;
