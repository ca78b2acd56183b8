/**
 * The admin API (create segment keys, change their step): off unless {@code id-server.admin.enabled=true}, and then
 * behind HTTP Basic authentication.
 */
@NullMarked
package io.idstarter.sample.admin;

import org.jspecify.annotations.NullMarked;
