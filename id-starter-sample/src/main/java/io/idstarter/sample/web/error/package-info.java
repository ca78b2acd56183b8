/**
 * Errors as RFC 9457 problem details: those of the endpoints, of Spring Security, of the error page and of Tomcat
 * itself, and the latest 503 messages kept for operators.
 */
@NullMarked
package io.idstarter.sample.web.error;

import org.jspecify.annotations.NullMarked;
