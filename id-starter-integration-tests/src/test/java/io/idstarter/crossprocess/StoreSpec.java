package io.idstarter.crossprocess;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.idstarter.testsupport.TcpProxy;
import org.jspecify.annotations.Nullable;

/**
 * Where a drill's store is and what this run's tables, key prefix or collections are called, in a form that a child
 * process receives as arguments.
 *
 * @param kind the store
 * @param url a JDBC URL, {@code redis://host:port}, or a {@code mongodb://} connection string
 * @param user the JDBC user, or {@code null} when the URL carries it (or the store has none)
 * @param password the JDBC password, or {@code null}
 * @param name this run's name: JDBC tables {@code <name>_alloc} and {@code <name>_lease}, Redis key prefix
 * {@code idstarter-<name>:}, MongoDB collections {@code <name>_segments} and {@code <name>_leases}; also the lease
 * namespace
 */
record StoreSpec(StoreKind kind, String url, @Nullable String user, @Nullable String password, String name) {

	/** The server's host and port in any of the URLs, after an optional {@code user:password@}. */
	private static final Pattern HOST_AND_PORT = Pattern.compile("//(?:[^@/]*@)?([^/:?,@]+):(\\d+)");

	StoreSpec {
		Objects.requireNonNull(kind, "kind");
		Objects.requireNonNull(url, "url");
		Objects.requireNonNull(name, "name");
		if (!name.matches("[a-z0-9_]{1,40}")) {
			throw new IllegalArgumentException("run name must be 1 to 40 of [a-z0-9_]: '" + name + "'");
		}
	}

	/**
	 * Returns the arguments {@link #fromArgs(Map)} reads back.
	 * @return {@code --store=...} and the others
	 */
	List<String> toArgs() {
		List<String> args = new ArrayList<>();
		args.add("--store=" + this.kind.name());
		args.add("--url=" + this.url);
		if (this.user != null) {
			args.add("--user=" + this.user);
		}
		if (this.password != null) {
			args.add("--password=" + this.password);
		}
		args.add("--name=" + this.name);
		return args;
	}

	/**
	 * Reads the arguments of {@link #toArgs()}.
	 * @param args option name (without {@code --}) to value
	 * @return the spec
	 */
	static StoreSpec fromArgs(Map<String, String> args) {
		return new StoreSpec(StoreKind.valueOf(required(args, "store")), required(args, "url"), args.get("user"),
				args.get("password"), required(args, "name"));
	}

	/**
	 * Returns the server's host.
	 * @return the host in the URL
	 */
	String host() {
		return hostAndPort().group(1);
	}

	/**
	 * Returns the server's port.
	 * @return the port in the URL
	 */
	int port() {
		return Integer.parseInt(hostAndPort().group(2));
	}

	/**
	 * Returns the same store reached through a proxy on the loopback interface.
	 * @param proxy a proxy to {@link #host()}:{@link #port()}
	 * @return the spec whose URL names the proxy
	 */
	StoreSpec through(TcpProxy proxy) {
		Matcher matcher = hostAndPort();
		String url = this.url.substring(0, matcher.start(1)) + "127.0.0.1:" + proxy.port()
				+ this.url.substring(matcher.end(2));
		return new StoreSpec(this.kind, url, this.user, this.password, this.name);
	}

	/**
	 * Starts a proxy in front of the server.
	 * @return the proxy, to close after use
	 */
	TcpProxy startProxy() {
		return TcpProxy.start(host(), port());
	}

	private Matcher hostAndPort() {
		Matcher matcher = HOST_AND_PORT.matcher(this.url);
		if (!matcher.find()) {
			throw new IllegalStateException("no host:port in " + this.url);
		}
		return matcher;
	}

	private static String required(Map<String, String> args, String name) {
		String value = args.get(name);
		if (value == null) {
			throw new IllegalArgumentException("missing --" + name + "=...");
		}
		return value;
	}

	@Override
	public String toString() {
		return this.kind + " " + this.url.replaceAll("//[^@/]*@", "//") + " (" + this.name + ")";
	}

}
