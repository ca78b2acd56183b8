package io.idstarter.crossprocess;

import java.time.Duration;

import io.idstarter.testsupport.TcpProxy;

/**
 * What goes wrong between a node and its store in the outage drills, applied through a {@link TcpProxy}.
 */
enum NetworkFault {

	/** Connections are reset and new ones closed at once: calls fail fast. */
	CUT,

	/**
	 * A black hole: connections stay open and new ones are accepted, but nothing is answered; a call fails only when
	 * a driver timeout runs out. What was sent is delivered when the fault ends.
	 */
	STALL,

	/**
	 * Every byte either way arrives {@link #DELAY} late, longer than the lease TTL of the drills (3 s) and than the
	 * drivers' timeouts (2 s): calls time out, yet requests the node gave up on still reach the store, late.
	 */
	LATENCY;

	/** The added delay of {@link #LATENCY}, each way. */
	static final Duration DELAY = Duration.ofSeconds(4);

	/**
	 * Puts the proxy into this fault until {@link TcpProxy#restore()}.
	 * @param proxy the proxy between the node and its store
	 */
	void apply(TcpProxy proxy) {
		switch (this) {
			case CUT -> proxy.cut();
			case STALL -> proxy.stall();
			case LATENCY -> proxy.latency(DELAY);
		}
	}

}
