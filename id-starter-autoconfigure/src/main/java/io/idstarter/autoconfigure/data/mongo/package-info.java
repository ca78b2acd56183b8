/**
 * Auto-configuration of Spring Data MongoDB entity IDs from sequences.
 */
@NullMarked
package io.idstarter.autoconfigure.data.mongo;

import org.jspecify.annotations.NullMarked;
