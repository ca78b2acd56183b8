/*
 * The worker-ID lease protocol of id-starter as a Promela model, checked exhaustively by spin.
 * verification/README.md maps every action to the Java method that implements it, and says how to run the check.
 *
 * What is modelled
 *   - A store with NS slots (worker IDs). A slot has an owner token (0: released or never used), an expiry by the
 *     store's clock, and a timestamp high-water mark (-1: never used). Every store call is one atomic step.
 *   - NN nodes, each a lease keeper with its Snowflake generator. Node n's wall clock reads t + n * SKEW while the
 *     store's reads t + SKEW: one node is SKEW ahead of the store, one on time, one SKEW behind (the clock guard,
 *     maxClockSkew, keeps every node within SKEW of the store). A node's monotonic clock is t.
 *   - Real time t advances one tick at a time up to TMAX, interleaved in every possible way with the nodes: a node
 *     may pause between any two of its steps for any number of ticks (GC pause, stalled network) and then carry on
 *     (a zombie), or die at any step and come back as a new process with no memory (lastTimestamp lost).
 *   - A renewal is sent at one step (the keeper reads its clocks and computes the ceiling it asks for) and executed
 *     by the store at a later step, or never (the call fails). A borrow is one step: a node holds no grant while it
 *     borrows, so a pause inside the call only shortens the grant it gets (its validity counts from before the call).
 *   - On borrow the store takes ANY free slot, so the result holds for every slot order, the documented one included.
 *   - With -DLOST_WRITE the store may, once, lose its last write: every slot goes back to what it was before that
 *     write (Redis failing over to a replica that had not received it, or restarting without persistence).
 *
 * The ID is abstracted: within one millisecond the generator never repeats a sequence and never goes below its
 * lastTimestamp, so sequences are a node's own business; a node issues one "ID" per timestamp here, and the pair
 * (slot, timestamp) stands for every (worker, timestamp, sequence) of that millisecond.
 *
 * Invariant, asserted at every issue: the timestamp is above every timestamp issued before on the slot, by any
 * node in any incarnation. So owners of a worker ID follow each other in time without overlap, and no
 * (worker, timestamp, sequence) is ever issued twice. With -DDUPLICATES_ONLY only the weaker half is asserted
 * (the timestamp differs from the greatest one issued before on the slot), so that a counterexample is a duplicate.
 *
 * Bounds: NS slots, NN nodes, real time 0..TMAX, MAXBORROWS borrows in all; chosen so that the check runs in well
 * under a minute on a loaded 2-core machine.
 */

#define NS      2               /* slots (worker IDs) */
#define NN      3               /* nodes */
#define TTL     2               /* lease TTL, ticks */
#define MARGIN  1               /* safety margin: a node stops issuing this long before the store can expire it */
#define SKEW    1               /* clock guard: |node clock - store clock| <= SKEW */
#define TMAX    3               /* real time runs 0..TMAX */
#define MAXBORROWS 3            /* borrows in one run, by all nodes together */

#define NONE    255
#define IDLE    0
#define RENEW   1

#define max(a, b)   ((a) > (b) -> (a) : (b))

/* The store. */
byte  owner[NS];                /* owner token: the holder's node number + 1; 0 when released or never used */
byte  expires[NS];              /* time (t) at which the holder's lease ends by the store's clock */
short mark[NS];                 /* high-water mark: greatest timestamp an owner of the slot was allowed to issue */

#ifdef LOST_WRITE
/* The store as it was before its last write. */
byte  prevOwner[NS];
byte  prevExpires[NS];
short prevMark[NS];
bool  written;
bool  lost;
#endif

byte  t;                        /* real time: the nodes' monotonic clock; the store's clock reads t + SKEW */

/* The nodes: their keeper, their generator, and the call each has in flight. */
byte  slot[NN];                 /* the slot the keeper believes it holds, NONE if none */
short floor[NN];                /* the lease's floor: the slot's mark when it was borrowed */
short ceiling[NN];              /* the grant's ceiling (WorkerGrant); 0 with no grant */
byte  validUntil[NN];           /* the grant's end by the monotonic clock; 0 with no grant (t < validUntil issues) */
short last[NN];                 /* generator.lastTimestamp(): greatest timestamp it issued, -1 for none */
byte  op[NN];                   /* the call in flight: IDLE or RENEW */
byte  sentAt[NN];               /* monotonic time read before that call */
short asked[NN];                /* the ceiling that call asks for */

byte  borrows;                  /* borrows so far, at most MAXBORROWS */
short top[NS];                  /* greatest timestamp issued so far on each slot, by anyone (-1: none) */

#define wall(n)     (t + (n) * SKEW)

inline remember() {
#ifdef LOST_WRITE
	prevOwner[0] = owner[0]; prevExpires[0] = expires[0]; prevMark[0] = mark[0];
	prevOwner[1] = owner[1]; prevExpires[1] = expires[1]; prevMark[1] = mark[1];
	written = true
#else
	skip
#endif
}

/* A grant that ran out by the monotonic clock issues nothing any more: forgetting it keeps equal situations equal. */
inline expireGrant(n) {
	if
	:: validUntil[n] != 0 && t >= validUntil[n] -> validUntil[n] = 0; ceiling[n] = 0
	:: else -> skip
	fi
}

/* Real time. */
active proctype Clock() {
end:
	do
	:: atomic { t < TMAX -> t++; expireGrant(0); expireGrant(1); expireGrant(2) }
	od
}

#ifdef LOST_WRITE
/* The store loses its last write, once, at any moment. */
active proctype Failover() {
	atomic {
		written && !lost ->
		owner[0] = prevOwner[0]; expires[0] = prevExpires[0]; mark[0] = prevMark[0];
		owner[1] = prevOwner[1]; expires[1] = prevExpires[1]; mark[1] = prevMark[1];
		lost = true;
		printf("t=%d the store loses its last write: worker 0 owner %d mark %d, worker 1 owner %d mark %d\n",
			t, owner[0], mark[0], owner[1], mark[1])
	}
}
#endif

inline revoke(n) {
	validUntil[n] = 0; ceiling[n] = 0
}

inline restart(n) {
	revoke(n); slot[n] = NONE; floor[n] = 0; op[n] = IDLE; sentAt[n] = 0; asked[n] = 0; last[n] = -1
}

inline done(n) {
	op[n] = IDLE; sentAt[n] = 0; asked[n] = 0
}

proctype Node(byte n) {
	byte s;
end:
	do
	/* WorkerLeaseKeeper.acquire + ISequenceManager.borrow in the store: the keeper reads its clocks and asks for
	   ceiling = max(clock, lastTimestamp) + ttl; the store takes a free slot (released, never used, or expired by the
	   store's clock): floor = mark, mark = max(mark, asked); the reply is granted (WorkerLeaseKeeper.grant). */
	:: atomic { op[n] == IDLE && slot[n] == NONE && borrows < MAXBORROWS ->
		borrows++;
		s = 0;
		do
		:: s < NS && (owner[s] == 0 || t >= expires[s]) -> break
		:: s < NS -> s++
		:: s >= NS -> break    /* NoFreeWorkerIdException, or the call failed */
		od;
		if
		:: s < NS ->
			remember();
			owner[s] = n + 1;
			expires[s] = t + TTL;
			slot[n] = s;
			floor[n] = mark[s];
			mark[s] = max(mark[s], max(wall(n), last[n]) + TTL);
			ceiling[n] = mark[s];
			validUntil[n] = t + TTL - MARGIN;
			printf("t=%d node %d borrows worker %d: floor %d, ceiling %d, issues until t=%d, store expiry t=%d\n",
				t, n, s, floor[n], ceiling[n], validUntil[n], expires[s])
		:: else -> skip
		fi;
		s = 0 }

	/* WorkerLeaseKeeper.renew: read the clocks; ask for ceiling = max(clock, lastTimestamp) + ttl. */
	:: atomic { op[n] == IDLE && slot[n] != NONE ->
		sentAt[n] = t; asked[n] = max(wall(n), last[n]) + TTL; op[n] = RENEW;
		printf("t=%d node %d sends renew of worker %d asking ceiling %d\n", t, n, slot[n], asked[n]) }

	/* ISequenceManager.renew in the store: only with the owner token (a lease that expired but was not taken is
	   renewed); expiry = now + ttl; the mark only rises. Otherwise LeaseLostException: the grant is revoked. */
	:: atomic { op[n] == RENEW ->
		if
		:: owner[slot[n]] == n + 1 ->
			remember();
			expires[slot[n]] = t + TTL;
			mark[slot[n]] = max(mark[slot[n]], asked[n]);
			ceiling[n] = mark[slot[n]];
			validUntil[n] = sentAt[n] + TTL - MARGIN;
			printf("t=%d store renews worker %d for node %d: ceiling %d, issues until t=%d, store expiry t=%d\n",
				t, slot[n], n, ceiling[n], validUntil[n], expires[slot[n]])
		:: else ->
			printf("t=%d store refuses renewal of worker %d by node %d: lease lost\n", t, slot[n], n);
			revoke(n); slot[n] = NONE; floor[n] = 0
		fi;
		done(n) }

	/* A renewal that fails without reaching the store: the grant is kept and runs out by itself. */
	:: atomic { op[n] == RENEW -> done(n) }

	/* WorkerLeaseKeeper.close and ISequenceManager.release in the store: the grant is revoked first; the store frees
	   the slot only for its owner and sets mark = max(reported lastTimestamp, floor) (keeps it for -1). The node then
	   comes back as a new process. A release that never reaches the store is a death (below). */
	:: atomic { op[n] == IDLE && slot[n] != NONE ->
		printf("t=%d node %d stops and releases worker %d reporting last timestamp %d\n", t, n, slot[n], last[n]);
		revoke(n);
		if
		:: owner[slot[n]] == n + 1 ->
			remember();
			owner[slot[n]] = 0;
			if
			:: last[n] >= 0 -> mark[slot[n]] = max(last[n], floor[n])
			:: else -> skip
			fi
		:: else -> skip
		fi;
		restart(n) }

	/* The node dies at any step and comes back with no memory: lease, grant and lastTimestamp are gone. */
	:: atomic { (slot[n] != NONE || last[n] >= 0 || op[n] != IDLE) ->
		printf("t=%d node %d dies and restarts\n", t, n);
		restart(n) }

	/* SnowflakeIdGenerator.nextId: under a grant still valid by the monotonic clock, a timestamp above lastTimestamp
	   and above the floor, not above the ceiling. */
	:: atomic { t < validUntil[n] && wall(n) > last[n] && wall(n) > floor[n] && wall(n) <= ceiling[n] ->
		last[n] = wall(n);
		printf("t=%d node %d issues IDs of worker %d at timestamp %d (before: up to %d on this worker)\n",
			t, n, slot[n], last[n], top[slot[n]]);
		/* the same (worker, timestamp) a second time: a duplicate ID */
		assert(last[n] != top[slot[n]]);
#ifndef DUPLICATES_ONLY
		/* below what an earlier owner issued: owners of the worker overlap in time */
		assert(last[n] > top[slot[n]]);
#endif
		top[slot[n]] = last[n] }
	od
}

init {
	atomic {
		mark[0] = -1; mark[1] = -1;
		top[0] = -1; top[1] = -1;
#ifdef LOST_WRITE
		prevMark[0] = -1; prevMark[1] = -1;
#endif
		slot[0] = NONE; slot[1] = NONE; slot[2] = NONE;
		last[0] = -1; last[1] = -1; last[2] = -1;
		run Node(0);
		run Node(1);
		run Node(2)
	}
}
