/**
 * A web and JPA application for the test-slice tests.
 */
@NullMarked
package io.idstarter.app.shop;

import org.jspecify.annotations.NullMarked;
