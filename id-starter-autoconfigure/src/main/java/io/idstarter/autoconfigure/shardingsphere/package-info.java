/**
 * Auto-configuration of the ShardingSphere key generator.
 */
@NullMarked
package io.idstarter.autoconfigure.shardingsphere;

import org.jspecify.annotations.NullMarked;
