/**
 * The ID endpoints: Leaf-compatible single IDs, batches, and Snowflake decoding; and the rule for logging what a
 * client chose.
 */
@NullMarked
package io.idstarter.sample.web;

import org.jspecify.annotations.NullMarked;
