/**
 * Model checks of the lease protocol (spin on {@code verification/lease.pml}).
 */
@NullMarked
package io.idstarter.verification;

import org.jspecify.annotations.NullMarked;
