/**
 * Snowflake IDs: a validated bit layout, a lock-free generator, clock-moved-backwards policies and parsing.
 */
@NullMarked
package io.idstarter.snowflake;

import org.jspecify.annotations.NullMarked;
