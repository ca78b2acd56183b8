/**
 * Jackson support for IDs that JavaScript cannot hold as numbers: {@link io.idstarter.jackson.IdAsString} and
 * {@link io.idstarter.jackson.JavaScriptSafeLongsModule}.
 */
@NullMarked
package io.idstarter.jackson;

import org.jspecify.annotations.NullMarked;
