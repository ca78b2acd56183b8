#!/usr/bin/env bash
# Runs the benchmarks whose results are written down in docs/benchmarks.md, one JMH report (text and JSON) per run,
# with the load average before and after each run and sampled every 15 s meanwhile (load.txt): figures taken while
# other processes compete for the two cores are noisy, and the load says how much. Ends with the report of every run
# in the directory (scripts/benchmark-report.py, also in report.md): each figure as a ratio to the bare AtomicLong of
# the same run, and the performance targets those runs cover, met or missed.
# Build first:  ./mvnw -B -ntp -pl id-starter-benchmarks,id-starter-startup-benchmarks -am package -DskipTests
#               (the client-mode runs build the sample and its test classes themselves when missing, or with BUILD=1)
# Usage:        scripts/benchmarks.sh [output directory] [run name ...]
#               (default directory id-starter-benchmarks/target/results; default runs: all but the client-mode ones,
#               about 45 minutes)
#               JMH_ARGS='-f 1 -i 3' adds options to every JMH run (fewer forks or iterations: shorter, noisier)
#               STARTUP_ARGS='runs=20' and MANY_KEYS_ARGS='100000 10000 postgres' change the start-up and many-keys runs
# Client mode:  client-mode     ClientModeBenchmark (sample's test sources): client mode against in-process and a bare
#                               AtomicLong at 1, 2 and 8 threads (CLIENT_THREADS), CLIENT_ROUNDS (3) interleaved rounds
#                               of one fork per mode, against one ID server (H2) in a process of its own, or the
#                               servers CLIENT_SERVERS (URLs) with a fleet client of token CLIENT_TOKEN for namespace
#                               fleet-client and key order; CLIENT_MAX_STEPS (1000000) the dynamic step's largest
#                               ranges to run, e.g. "1000000 100000000"; ~8 minutes per max step
#               client-failover ClientModeFailover: nextId latencies of a client of two ID servers on one MariaDB
#                               (FAILOVER_DB_URL, _USER, _PASSWORD; default the test user's idstarter database), one
#                               of them killed with SIGKILL meanwhile, against a bare AtomicLong's; FAILOVER_SECONDS
#                               (20); ~2 minutes
# Sequences:    sequence-inserts  SequenceInsertLoad: JPA inserts on the local PostgreSQL with IDs from Hibernate's pooled
#                                 and pooled-lo and from id-starter's sequence store (marks in memory, and in a file), at
#                                 1, 2 and 8 threads, steps 50 and 1000, with and without synchronous_commit, 3 rounds
#                                 (~16 minutes); SEQUENCE_JAVA_OPTS='-Dinserts.rounds=1 -Dinserts.seconds=2' and the
#                                 other inserts.* properties of its javadoc shorten it. Builds the module's class path
#                                 when missing (or with BUILD=1).
# Every run holds the lock file MEASURE_LOCK (/tmp/idstarter-measure.lock), which scripts/load-test.sh takes too.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-id-starter-benchmarks/target/results}
shift || true
jar=id-starter-benchmarks/target/benchmarks.jar
mkdir -p "$out"

all=(segment-t1 segment-t2 snowflake-t1 snowflake-t2 batch latency codec round-trips startup many-keys)
runs=("${@:-${all[@]}}")
MEASURE_LOCK=${MEASURE_LOCK:-/tmp/idstarter-measure.lock}
# The JMH command: the benchmarks module's jar; the client-mode runs use the sample's test class path instead.
jmh_command=(java -jar "$jar")

(while sleep 15; do echo "$(date -Is) $(cut -d' ' -f1-3 /proc/loadavg)"; done) >>"$out/load.txt" &
sampler=$!
servers=()
stop() {
  kill "$sampler"
  for server in "${servers[@]}"; do kill "$server" 2>/dev/null || true; done
}
trap stop EXIT

measured() { # run name, command: runs it holding the measurement lock, with the load average before and after
  local name=$1
  shift
  {
    echo "# start $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)"
    flock "$MEASURE_LOCK" "$@"
    echo "# end $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)"
  } >"$out/$name.txt" 2>&1 || { cat "$out/$name.txt" >&2; return 1; }
}

jmh() { # run name, JMH arguments
  local name=$1
  shift
  # JMH also takes a machine-wide lock (/tmp/jmh.lock), which runs outside these scripts may hold: wait for it.
  until {
    echo "# start $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)"
    # shellcheck disable=SC2086
    flock "$MEASURE_LOCK" "${jmh_command[@]}" "$@" ${JMH_ARGS:-} -rf json -rff "$out/$name.json"
  } >"$out/$name.txt" 2>&1; do
    grep -q 'Unable to acquire the JMH lock' "$out/$name.txt" || { cat "$out/$name.txt" >&2; return 1; }
    echo "$(date -Is) $name: another JMH run holds the lock; waiting"
    sleep 20
  done
  echo "# end $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/$name.txt"
}

# The sample's jar and the class path of its test classes (ClientModeBenchmark, ClientModeFailover), built when
# missing (or with BUILD=1), never while holding the lock.
sample_classpath=id-starter-sample/target/test-classpath.txt
client_mode_setup() {
  if [ ! -f "$sample_classpath" ] || [ "${BUILD:-0}" = 1 ]; then
    ./mvnw -B -ntp -q -pl id-starter-sample -am package -DskipTests dependency:build-classpath \
      -Dmdep.includeScope=test -Dmdep.outputFile="$PWD/$sample_classpath"
  fi
  sample_jar=$(find id-starter-sample/target -maxdepth 1 -name 'id-starter-sample-*.jar' ! -name '*-plain.jar' | head -n 1)
  client_cp="id-starter-sample/target/test-classes:id-starter-sample/target/classes:$(cat "$sample_classpath")"
  token="bench-token-$RANDOM$RANDOM-0123456789"
  export IDSTARTER_BENCH_TOKEN=$token
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
start_id_server() { # name, further arguments; sets server_url and server_pid
  local name=$1 port
  shift
  port=$(free_port)
  java -jar "$sample_jar" --server.address=127.0.0.1 --server.port="$port" --id-server.data-dir="$out/$name-data" \
    --id-server.clients[0].name=bench --id-server.clients[0].token="$token" \
    --id-server.clients[0].namespaces=fleet-client --id-server.clients[0].segment-keys=order \
    --id-server.clients[0].max-ranges-per-second=10000 "$@" >"$out/$name.log" 2>&1 &
  server_pid=$!
  servers+=("$server_pid")
  server_url="http://127.0.0.1:$port"
  for _ in $(seq 1 240); do
    curl -fs "$server_url/actuator/health" >/dev/null 2>&1 && return 0
    kill -0 "$server_pid" 2>/dev/null || { echo "ID server $name exited; see $out/$name.log" >&2; exit 1; }
    sleep 0.5
  done
  echo "ID server $name did not answer within 120 s; see $out/$name.log" >&2
  exit 1
}

warm_fleet_api() { # server URLs: 500 range requests to each, on one connection per server
  python3 - "$token" "$@" <<'EOF'
import http.client, sys, urllib.parse
token, urls = sys.argv[1], sys.argv[2:]
for url in urls:
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    for _ in range(500):
        connection.request("POST", "/api/fleet/segments/order/ranges", body="{}",
                           headers={"Authorization": "Bearer " + token, "Content-Type": "application/json"})
        answer = connection.getresponse()
        answer.read()
        if answer.status != 200:
            sys.exit(f"warm-up of {url}: HTTP {answer.status} {answer.reason}")
    connection.close()
EOF
}

for run in "${runs[@]}"; do
  echo "$(date -Is) $run"
  case $run in
    segment-t1) jmh "$run" 'segment.SegmentBenchmark' -t 1 ;;
    segment-t2) jmh "$run" 'segment.SegmentBenchmark' -t 2 ;;
    snowflake-t1) jmh "$run" 'snowflake.SnowflakeBenchmark' -t 1 ;;
    snowflake-t2) jmh "$run" 'snowflake.SnowflakeBenchmark' -t 2 ;;
    batch) jmh "$run" SegmentBatchBenchmark ;;
    latency) jmh "$run" SegmentLatencyBenchmark ;;
    codec) jmh "$run" CodecBenchmark ;;
    round-trips)
      {
        echo "# start $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)"
        java -cp "$jar" io.idstarter.segment.StoreRoundTrips
        echo "# end $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)"
      } >"$out/$run.txt" 2>&1 ;;
    startup)
      # shellcheck disable=SC2086
      measured "$run" java -cp id-starter-startup-benchmarks/target/classes io.idstarter.startup.StartupBenchmark \
        ${STARTUP_ARGS:-runs=10} json="$out/$run.json" ;;
    many-keys)
      # shellcheck disable=SC2086
      measured "$run" java -Xmx3g -cp "$jar" io.idstarter.segment.ManyKeys ${MANY_KEYS_ARGS:-100000 10000 \
        memory,postgres,redis,postgres+metrics} "$out/$run.json" ;;
    client-mode)
      client_mode_setup
      if [ -n "${CLIENT_SERVERS:-}" ]; then
        # ID servers elsewhere (another machine: no competition for these cores), with a fleet client of this token
        export IDSTARTER_BENCH_SERVERS=$CLIENT_SERVERS IDSTARTER_BENCH_TOKEN=${CLIENT_TOKEN:?CLIENT_TOKEN is not set}
        token=$IDSTARTER_BENCH_TOKEN server_pid=
      else
        start_id_server client-mode-server
        export IDSTARTER_BENCH_SERVERS=$server_url
      fi
      warm_fleet_api ${IDSTARTER_BENCH_SERVERS//,/ }
      jmh_command=(java -cp "$client_cp" org.openjdk.jmh.Main)
      modes=(ATOMIC_LONG IN_PROCESS CLIENT)
      for threads in ${CLIENT_THREADS:-1 2 8}; do
        for max_step in ${CLIENT_MAX_STEPS:-1000000}; do
          for round in $(seq 1 "${CLIENT_ROUNDS:-3}"); do
            # Each round starts with another mode, so that no mode always follows the same one.
            for i in 0 1 2; do
              mode=${modes[$(((i + round - 1) % 3))]}
              jmh "client-mode-t$threads-m$max_step-r$round-$mode" ClientModeBenchmark -t "$threads" \
                -p mode="$mode" -p maxStep="$max_step"
            done
          done
        done
      done
      jmh_command=(java -jar "$jar")
      if [ -n "$server_pid" ]; then kill "$server_pid"; fi ;;
    client-failover)
      client_mode_setup
      suffix=$RANDOM$RANDOM
      db=(--spring.profiles.active=mariadb
        --spring.datasource.url="${FAILOVER_DB_URL:-jdbc:mariadb://127.0.0.1:3306/idstarter}"
        --spring.datasource.username="${FAILOVER_DB_USER:-idstarter}"
        --spring.datasource.password="${FAILOVER_DB_PASSWORD:-idstarter}"
        --id-worker.jdbc.segment-table="bench_alloc_$suffix" --id-worker.jdbc.lease-table="bench_lease_$suffix"
        --id-worker.lease.namespace="bench-servers-$suffix")
      start_id_server failover-server-1 "${db[@]}"
      first_url=$server_url first_pid=$server_pid
      start_id_server failover-server-2 "${db[@]}"
      # Both servers take fleet calls before the measurement, as servers of a fleet do: a server's first calls
      # (its lazy initialisation, interpreted code) take seconds, which the failover would otherwise measure.
      warm_fleet_api "$first_url" "$server_url"
      seconds=${FAILOVER_SECONDS:-20}
      {
        echo "# start $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)"
        flock "$MEASURE_LOCK" java -cp "$client_cp" io.idstarter.fleetclient.ClientModeFailover floor "$seconds" \
          "$out/client-failover-floor.json"
        flock "$MEASURE_LOCK" java -cp "$client_cp" io.idstarter.fleetclient.ClientModeFailover \
          "$first_url,$server_url" "$first_pid,$server_pid" "$token" "$seconds" "$out/client-failover.json"
        echo "# end $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)"
      } >"$out/$run.txt" 2>&1 || { cat "$out/$run.txt" >&2; exit 1; }
      if command -v mysql >/dev/null; then # best effort: the run's tables
        MYSQL_PWD=${FAILOVER_DB_PASSWORD:-idstarter} mysql -h 127.0.0.1 -u "${FAILOVER_DB_USER:-idstarter}" idstarter \
          -e "DROP TABLE IF EXISTS bench_alloc_$suffix, bench_lease_$suffix" 2>/dev/null || true
      fi ;;
    sequence-inserts)
      # Spring Boot applications: from the module's class path, not from the shaded jar, where the resources of Spring
      # Boot's jars that share a name (META-INF/spring.factories) overwrite each other; built before the lock is taken.
      classpath=id-starter-benchmarks/target/classpath.txt
      if [ ! -f "$classpath" ] || [ "${BUILD:-0}" = 1 ]; then
        ./mvnw -B -ntp -q -pl id-starter-benchmarks -am package -DskipTests dependency:build-classpath \
          -Dmdep.outputFile="$PWD/$classpath"
      fi
      {
        echo "# start $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)"
        # shellcheck disable=SC2086
        flock "$MEASURE_LOCK" java -Xms1g -Xmx1g ${SEQUENCE_JAVA_OPTS:-} \
          -cp "id-starter-benchmarks/target/classes:$(cat "$classpath")" io.idstarter.sequence.SequenceInsertLoad \
          "$out/$run.tsv"
        echo "# end $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)"
      } >"$out/$run.txt" 2>&1 || { cat "$out/$run.txt" >&2; exit 1; } ;;
    *) echo "unknown run '$run'; runs: ${all[*]} client-mode client-failover sequence-inserts" >&2; exit 2 ;;
  esac
done

python3 scripts/benchmark-report.py "$out" | tee "$out/report.md"
