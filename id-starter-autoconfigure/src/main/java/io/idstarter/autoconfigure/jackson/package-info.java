/**
 * Auto-configuration of the Jackson integration: IDs as JSON strings for JavaScript clients.
 */
@NullMarked
package io.idstarter.autoconfigure.jackson;

import org.jspecify.annotations.NullMarked;
