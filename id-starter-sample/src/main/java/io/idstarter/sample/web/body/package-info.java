/**
 * Request bodies that cannot hold request threads: only the APIs that take one may send one, small, and whole within
 * a deadline.
 */
@NullMarked
package io.idstarter.sample.web.body;

import org.jspecify.annotations.NullMarked;
