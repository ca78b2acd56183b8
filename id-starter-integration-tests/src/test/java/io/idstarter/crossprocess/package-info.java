/**
 * End-to-end correctness drills of the store adapters: many JVMs sharing one real store (one of them killed with
 * SIGKILL and started again), clocks that disagree, and stores cut off mid-run.
 */
@NullMarked
package io.idstarter.crossprocess;

import org.jspecify.annotations.NullMarked;
