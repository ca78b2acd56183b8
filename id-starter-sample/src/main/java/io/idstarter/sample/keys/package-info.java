/**
 * Segment keys the server creates on start when the store lacks them ({@code id-server.keys}).
 */
@NullMarked
package io.idstarter.sample.keys;

import org.jspecify.annotations.NullMarked;
