/**
 * Auto-configuration of MyBatis-Plus entity IDs from id-starter.
 */
@NullMarked
package io.idstarter.autoconfigure.mybatisplus;

import org.jspecify.annotations.NullMarked;
