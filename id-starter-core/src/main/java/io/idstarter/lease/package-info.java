/**
 * Worker-ID leases: the {@link io.idstarter.lease.ISequenceManager} extension point and the keeper that borrows,
 * renews and gives back a Snowflake worker ID.
 */
@NullMarked
package io.idstarter.lease;

import org.jspecify.annotations.NullMarked;
