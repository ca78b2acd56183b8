package io.idstarter.store.http;

/**
 * The former name of {@link HttpLeaseStore}.
 *
 * @deprecated lease stores are named {@code *LeaseStore} so that they read apart from the sequences of
 * {@code io.idstarter.sequence}; use {@link HttpLeaseStore}, which takes the same arguments
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public class HttpSequenceManager extends HttpLeaseStore {

	public HttpSequenceManager(IdServerClient client) {
		super(client);
	}

}
