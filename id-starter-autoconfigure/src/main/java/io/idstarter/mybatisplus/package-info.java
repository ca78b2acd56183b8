/**
 * MyBatis-Plus entity IDs from id-starter.
 */
@NullMarked
package io.idstarter.mybatisplus;

import org.jspecify.annotations.NullMarked;
