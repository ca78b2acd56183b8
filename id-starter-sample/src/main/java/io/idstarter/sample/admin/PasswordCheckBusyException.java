package io.idstarter.sample.admin;

import org.springframework.security.authentication.AuthenticationServiceException;

/**
 * A password could not be checked in time because other requests' checks held the one slot: the credentials were
 * neither accepted nor refused, so the answer is a 503, and it is no failed login.
 */
public class PasswordCheckBusyException extends AuthenticationServiceException {

	PasswordCheckBusyException(long waitedMillis) {
		super("No password check could start within " + waitedMillis + " ms (id-server.login.password-check-wait): "
				+ "other requests' checks held the slot");
	}

}
