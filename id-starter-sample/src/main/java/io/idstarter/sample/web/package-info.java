/**
 * The ID endpoints: Leaf-compatible single IDs, batches, Snowflake decoding, and errors as RFC 9457 problem details.
 */
@NullMarked
package io.idstarter.sample.web;

import org.jspecify.annotations.NullMarked;
