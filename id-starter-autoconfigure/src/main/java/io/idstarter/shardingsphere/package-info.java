/**
 * ShardingSphere key generation from id-starter: the {@code ID_STARTER} key generate algorithm.
 */
@NullMarked
package io.idstarter.shardingsphere;

import org.jspecify.annotations.NullMarked;
