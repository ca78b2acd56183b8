/**
 * Spring Data MongoDB entity IDs from sequences: {@link io.idstarter.data.mongo.SequenceId}.
 */
@NullMarked
package io.idstarter.data.mongo;

import org.jspecify.annotations.NullMarked;
