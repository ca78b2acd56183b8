#!/usr/bin/env bash
# Measures the throughput of the sample ID server with wrk, on loopback only, against the limit of its own stack (the
# bare server of id-starter-bare-server: one servlet answering a constant number on the same Spring Boot, Tomcat,
# JVM options and application.yml) and against Meituan's Leaf server when given Leaf's jar. Starts each server on a
# free port, warms it up, runs wrk against /api/segment/get/{key} and /api/snowflake/get/{key}, and for every timed
# run takes the server's CPU time per request (user + system, read from /proc/<pid>/stat before and after the run:
# unlike requests/s it does not move much with what else the machine runs) and the load average. Servers take turns,
# round after round (ours, bare, Leaf, ours, bare, Leaf...) at each number of connections, so that a change of the
# machine's load hits each alike; scripts/load-test-report.py then gives, per endpoint and number of connections,
# each server's median requests/s, p50, p99 and CPU per request and the ratios ours/bare, ours/Leaf (and ours/base),
# with the targets they are held to (written to report.md in the output directory too).
# A separate, shorter correctness run per server and endpoint (wrk with a Lua script that keeps every answer) fails the
# script on any answer other than 200 with a decimal body, or any ID answered twice (the bare server, whose number is
# constant, is left out of it).
# Every wrk run holds the lock file MEASURE_LOCK (flock), so that it never overlaps with other measurements that take
# the same lock (JMH runs). Installs Debian's wrk when missing and builds the jars when they are not there (or
# BUILD=1), never while holding the lock. Not run by CI: the numbers go into docs/server.md by hand.
#
# Usage: scripts/load-test.sh [duration (20s)] [threads (2)] [connections (50; a list such as 50,200 takes turns)]
#
# Environment:
#   OUT            directory for the results, logs, wrk reports and report.md (default: a new temporary directory)
#   BARE           1 (default) runs the bare server beside ours, 0 leaves it out; BARE_JAR its jar (default: the
#                  id-starter-bare-server module's)
#   SERVER_ARGS    arguments of ours, base and bare alike (e.g. --spring.threads.virtual.enabled=true)
#   JAVA           the java of ours, base and bare (default: java on the PATH; e.g.
#                  /usr/lib/jvm/temurin-25-jdk-amd64/bin/java for virtual threads); LEAF_JAVA Leaf's (default java)
#   PROFILER       async-profiler's libasyncProfiler.so: after the timed rounds, one more run per server (ours and
#                  bare) and endpoint at the first number of connections, with the profiler attached (CPU samples
#                  every PROFILE_INTERVAL ns, default 200000), writes profile-<server>-<endpoint>.collapsed and prints
#                  where ours spends CPU per request that the bare server does not (PROFILE_DURATION, default 10s)
#   STORE          h2 (default: a fresh data directory) or mariadb (profile mariadb, database MARIADB_DATABASE,
#                  dropped and created again by the script)
#   LEAF_JAR       Leaf's leaf-server jar (see docs/server.md for building it): also runs Leaf on MariaDB (database
#                  LEAF_DATABASE with table leaf_alloc and the key, created by the script) and ZooKeeper LEAF_ZK;
#                  implies STORE=mariadb
#   BASE_JAR       a second build of our server to run beside JAR ("base"), each on its own database, for measuring
#                  one change against the build without it; BASE_ARGS are its extra arguments
#   JAR            our server's jar (default: the sample module's); OURS_ARGS are its extra arguments
#   ROUNDS         timed runs per server, endpoint and number of connections (default 3; 1 with BARE=0 and neither
#                  Leaf nor a base)
#   WARMUP         warm-up per server and endpoint (default 5s)
#   CHECK          1 (default) runs the correctness pass, 0 skips it; CHECK_DURATION (default 3s)
#   KEY            the key asked for (default order)
#   JAVA_OPTS      JVM options of our server(s); LEAF_JAVA_OPTS of Leaf's
#   MARIADB_HOST / MARIADB_PORT / MARIADB_USER / MARIADB_PASSWORD (default 127.0.0.1 / 3306 / root / empty),
#   MARIADB_DATABASE (default idstarter_load), LEAF_DATABASE (default leaf), LEAF_ZK (default 127.0.0.1:12181)
#   MEASURE_LOCK   lock file held during every wrk run (default /tmp/idstarter-measure.lock)
#   PORT / BARE_PORT / BASE_PORT / LEAF_PORT   ports (default: free ports)
set -euo pipefail

DURATION=${1:-20s}
THREADS=${2:-2}
IFS=', ' read -r -a CONNECTIONS <<<"${3:-50}"
WARMUP=${WARMUP:-5s}
KEY=${KEY:-order}
CHECK=${CHECK:-1}
CHECK_DURATION=${CHECK_DURATION:-3s}
MEASURE_LOCK=${MEASURE_LOCK:-/tmp/idstarter-measure.lock}
LEAF_JAR=${LEAF_JAR:-}
BASE_JAR=${BASE_JAR:-}
BARE=${BARE:-1}
JAVA=${JAVA:-java}
LEAF_JAVA=${LEAF_JAVA:-java}
PROFILER=${PROFILER:-}
PROFILE_DURATION=${PROFILE_DURATION:-10s}
PROFILE_INTERVAL=${PROFILE_INTERVAL:-200000}
STORE=${STORE:-h2}
if [ -n "$LEAF_JAR" ]; then STORE=mariadb; fi
if [ -n "$LEAF_JAR" ] || [ -n "$BASE_JAR" ] || [ "$BARE" = 1 ]; then ROUNDS=${ROUNDS:-3}; else ROUNDS=${ROUNDS:-1}; fi
MARIADB_HOST=${MARIADB_HOST:-127.0.0.1}
MARIADB_PORT=${MARIADB_PORT:-3306}
MARIADB_USER=${MARIADB_USER:-root}
MARIADB_PASSWORD=${MARIADB_PASSWORD:-}
MARIADB_DATABASE=${MARIADB_DATABASE:-idstarter_load}
LEAF_DATABASE=${LEAF_DATABASE:-leaf}
LEAF_ZK=${LEAF_ZK:-127.0.0.1:12181}

cd "$(dirname "$0")/.."

log() { printf '[load-test] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
sql() { MYSQL_PWD=$MARIADB_PASSWORD mysql -h "$MARIADB_HOST" -P "$MARIADB_PORT" -u "$MARIADB_USER" -e "$1"; }

case "$STORE" in
  h2 | mariadb) ;;
  *) log "ERROR: STORE must be h2 or mariadb, not '$STORE'"; exit 2 ;;
esac
if [ -n "$LEAF_JAR" ] && [ ! -f "$LEAF_JAR" ]; then log "ERROR: LEAF_JAR $LEAF_JAR is no file"; exit 2; fi
if [ -n "$BASE_JAR" ] && [ ! -f "$BASE_JAR" ]; then log "ERROR: BASE_JAR $BASE_JAR is no file"; exit 2; fi
if [ -n "$PROFILER" ] && [ ! -f "$PROFILER" ]; then log "ERROR: PROFILER $PROFILER is no file"; exit 2; fi
for c in "${CONNECTIONS[@]}"; do
  [[ $c =~ ^[1-9][0-9]*$ ]] || { log "ERROR: connections must be numbers such as 50 or 50,200, not '${3:-}'"; exit 2; }
done

if ! command -v wrk >/dev/null; then
  log "installing wrk"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

find_jar() { # module
  find "$1/target" -maxdepth 1 -name "$1-*.jar" ! -name '*-plain.jar' 2>/dev/null | head -n 1
}
jar=${JAR:-$(find_jar id-starter-sample)}
bare_jar=${BARE_JAR:-$(find_jar id-starter-bare-server)}
if { [ -z "${JAR:-}" ] && { [ -z "$jar" ] || [ "${BUILD:-0}" = 1 ]; }; } \
    || { [ "$BARE" = 1 ] && [ -z "${BARE_JAR:-}" ] && { [ -z "$bare_jar" ] || [ "${BUILD:-0}" = 1 ]; }; }; then
  log "building the server jars"
  ./mvnw -B -ntp -q -pl id-starter-sample,id-starter-bare-server -am package -DskipTests
  jar=${JAR:-$(find_jar id-starter-sample)}
  bare_jar=${BARE_JAR:-$(find_jar id-starter-bare-server)}
fi

work=${OUT:-$(mktemp -d -t id-server-load-XXXXXX)}
mkdir -p "$work"
ticks_per_second=$(getconf CLK_TCK)

# Servers, by name: ours, bare, base (BASE_JAR), leaf (LEAF_JAR).
names=()
declare -A pid port
stop_all() {
  for name in "${names[@]}"; do
    kill "${pid[$name]}" 2>/dev/null && wait "${pid[$name]}" 2>/dev/null || true
  done
  log "servers stopped; logs and wrk reports in $work"
}
trap stop_all EXIT

wait_until_up() { # name url
  local name=$1 url=$2
  for _ in $(seq 1 120); do
    curl -fs "$url" >/dev/null 2>&1 && return 0
    kill -0 "${pid[$name]}" 2>/dev/null || { log "ERROR: $name exited; see $work/$name.log"; exit 1; }
    sleep 0.5
  done
  log "ERROR: $name did not answer within 60 s; see $work/$name.log"
  exit 1
}

start_ours() { # name jar port database extra-args
  local name=$1 server_jar=$2 server_port=$3 database=$4 extra=$5
  local args=(--server.address=127.0.0.1 --server.port="$server_port" --id-server.data-dir="$work/$name-data")
  if [ "$STORE" = mariadb ]; then
    sql "DROP DATABASE IF EXISTS \`$database\`; CREATE DATABASE \`$database\`"
    args+=(--spring.profiles.active=mariadb
      --spring.datasource.url="jdbc:mariadb://$MARIADB_HOST:$MARIADB_PORT/$database"
      --spring.datasource.username="$MARIADB_USER" --spring.datasource.password="$MARIADB_PASSWORD")
  fi
  log "starting $name: $server_jar on 127.0.0.1:$server_port ($STORE${extra:+, $extra}${SERVER_ARGS:+, $SERVER_ARGS})"
  # shellcheck disable=SC2086
  "$JAVA" ${JAVA_OPTS:-} -jar "$server_jar" "${args[@]}" ${SERVER_ARGS:-} $extra >"$work/$name.log" 2>&1 &
  pid[$name]=$!
  port[$name]=$server_port
  names+=("$name")
  wait_until_up "$name" "http://127.0.0.1:$server_port/actuator/health"
}

start_bare() { # port
  local server_port=$1
  log "starting bare: $bare_jar on 127.0.0.1:$server_port${SERVER_ARGS:+ ($SERVER_ARGS)}"
  # shellcheck disable=SC2086
  "$JAVA" ${JAVA_OPTS:-} -jar "$bare_jar" --server.address=127.0.0.1 --server.port="$server_port" ${SERVER_ARGS:-} \
    >"$work/bare.log" 2>&1 &
  pid[bare]=$!
  port[bare]=$server_port
  names+=(bare)
  wait_until_up bare "http://127.0.0.1:$server_port/api/segment/get/$KEY"
}

start_leaf() { # port
  local server_port=$1
  # Leaf reads leaf.properties from its class path only: PropertiesLauncher puts this directory ahead of the jar's.
  mkdir -p "$work/leaf-conf"
  cat >"$work/leaf-conf/leaf.properties" <<EOF
leaf.name=idstarter.load.$server_port
leaf.segment.enable=true
leaf.jdbc.url=jdbc:mysql://$MARIADB_HOST:$MARIADB_PORT/$LEAF_DATABASE?useUnicode=true&characterEncoding=utf8&useSSL=false
leaf.jdbc.username=$MARIADB_USER
leaf.jdbc.password=$MARIADB_PASSWORD
leaf.snowflake.enable=true
leaf.snowflake.zk.address=$LEAF_ZK
leaf.snowflake.port=$server_port
EOF
  sql "DROP DATABASE IF EXISTS \`$LEAF_DATABASE\`; CREATE DATABASE \`$LEAF_DATABASE\`; USE \`$LEAF_DATABASE\`;
    CREATE TABLE leaf_alloc (biz_tag varchar(128) NOT NULL DEFAULT '', max_id bigint NOT NULL DEFAULT 1,
      step int NOT NULL, description varchar(256) DEFAULT NULL,
      update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
      PRIMARY KEY (biz_tag)) ENGINE=InnoDB;
    INSERT INTO leaf_alloc (biz_tag, max_id, step, description) VALUES ('$KEY', 1, 2000, 'load test')"
  log "starting leaf: $LEAF_JAR on 127.0.0.1:$server_port (MariaDB database $LEAF_DATABASE, ZooKeeper $LEAF_ZK)"
  # shellcheck disable=SC2086
  (cd "$work/leaf-conf" && exec "$LEAF_JAVA" --add-opens java.base/java.lang=ALL-UNNAMED ${LEAF_JAVA_OPTS:-} \
    -Dloader.path="$work/leaf-conf" -cp "$LEAF_JAR" org.springframework.boot.loader.PropertiesLauncher \
    --server.address=127.0.0.1 --server.port="$server_port") >"$work/leaf.log" 2>&1 &
  pid[leaf]=$!
  port[leaf]=$server_port
  names+=(leaf)
  wait_until_up leaf "http://127.0.0.1:$server_port/api/segment/get/$KEY"
}

start_ours ours "$jar" "${PORT:-$(free_port)}" "$MARIADB_DATABASE" "${OURS_ARGS:-}"
if [ "$BARE" = 1 ]; then
  start_bare "${BARE_PORT:-$(free_port)}"
fi
if [ -n "$BASE_JAR" ]; then
  start_ours base "$BASE_JAR" "${BASE_PORT:-$(free_port)}" "${MARIADB_DATABASE}_base" "${BASE_ARGS:-}"
fi
if [ -n "$LEAF_JAR" ]; then
  start_leaf "${LEAF_PORT:-$(free_port)}"
fi

cpu_ticks() { # user + system time of a server so far, in clock ticks (fields 14 and 15 of /proc/<pid>/stat)
  sed 's/^.*) //' "/proc/${pid[$1]}/stat" | awk '{ print $12 + $13 }'
}
to_ms() { # a wrk latency (850.00us, 1.23ms, 2.00s) in milliseconds
  awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n += 0; else if (v ~ /m$/) n *= 60000;
    else if (v ~ /s$/) n *= 1000; printf "%.2f", n }'
}
# Runs its arguments while holding the measurement lock.
measured() { flock "$MEASURE_LOCK" "$@"; }

endpoints=(segment snowflake)
url() { echo "http://127.0.0.1:${port[$1]}/api/$2/get/$KEY"; }

connection_list=$(IFS=,; echo "${CONNECTIONS[*]}")
java_version=$("$JAVA" -version 2>&1 | head -n 1)
log "$(nproc) cores, $java_version, wrk -t$THREADS -c$connection_list and the servers on the same machine;" \
  "servers: ${names[*]}; store: $STORE; $ROUNDS round(s) of $DURATION${SERVER_ARGS:+; $SERVER_ARGS}"
{
  echo "date: $(date -Is)"
  echo "machine: $(nproc) cores, $(uname -r), $java_version${JAVA_OPTS:+, $JAVA_OPTS}${SERVER_ARGS:+, $SERVER_ARGS}"
  echo "run: wrk -t$THREADS, connections $connection_list, $ROUNDS round(s) of $DURATION after $WARMUP of warm-up," \
    "store $STORE, servers ${names[*]}"
  if [ -n "$PROFILER" ]; then echo "profile interval: $PROFILE_INTERVAL ns of CPU, $PROFILE_DURATION per run"; fi
} >"$work/run.txt"
# At the largest number of connections, so that every server has started the threads the timed runs need.
warmup_connections=$(printf '%s\n' "${CONNECTIONS[@]}" | sort -n | tail -n 1)
for name in "${names[@]}"; do
  for endpoint in "${endpoints[@]}"; do
    log "warm-up $name: wrk -t$THREADS -c$warmup_connections -d$WARMUP $(url "$name" "$endpoint")"
    measured wrk -t"$THREADS" -c"$warmup_connections" -d"$WARMUP" "$(url "$name" "$endpoint")" >/dev/null
  done
done

# One timed run: writes "name endpoint connections round req/s p50 p99 cpu-us-per-request load-average non-2xx" to
# results.txt.
results=$work/results.txt
: >"$results"
timed_run() { # name endpoint connections round
  local name=$1 endpoint=$2 connections=$3 round=$4 out="$work/wrk-$1-$2-c$3-$4.out"
  # The lock is held from the first CPU reading to the last, so that the reading covers the run only.
  measured bash -c '
    load=$(cut -d " " -f 1 /proc/loadavg)
    before=$(sed "s/^.*) //" "/proc/$1/stat" | awk "{ print \$12 + \$13 }")
    wrk -t"$2" -c"$3" -d"$4" --latency "$5" >"$6"
    after=$(sed "s/^.*) //" "/proc/$1/stat" | awk "{ print \$12 + \$13 }")
    echo "$load $before $after" >"$6.cpu"' _ "${pid[$name]}" "$THREADS" "$connections" "$DURATION" \
    "$(url "$name" "$endpoint")" "$out"
  local load before after requests rps p50 p99 cpu non2xx
  read -r load before after <"$out.cpu"
  requests=$(awk '/requests in/ { print $1 }' "$out")
  rps=$(awk '/^Requests\/sec/ { printf "%.0f", $2 }' "$out")
  p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' "$out")")
  p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$out")")
  cpu=$(awk -v t="$((after - before))" -v hz="$ticks_per_second" -v n="$requests" 'BEGIN { printf "%.1f", t * 1e6 / hz / n }')
  non2xx=$(awk '/Non-2xx or 3xx responses/ { print $NF }' "$out")
  echo "$name $endpoint $connections $round $rps $p50 $p99 $cpu $load ${non2xx:-0}" >>"$results"
  log "round $round, c$connections, $name, $endpoint: $rps req/s, p50 $p50 ms, p99 $p99 ms, $cpu µs CPU per" \
    "request (load average $load before the run)${non2xx:+, $non2xx answers not 2xx}"
}

for round in $(seq 1 "$ROUNDS"); do
  for connections in "${CONNECTIONS[@]}"; do
    for endpoint in "${endpoints[@]}"; do
      for name in "${names[@]}"; do
        timed_run "$name" "$endpoint" "$connections" "$round"
      done
    done
  done
done

# Where ours spends CPU per request: async-profiler attached to each of ours and bare for one more run per endpoint
# (jcmd's JVMTI.agent_load starts it and, loaded again, stops it and writes the collapsed stacks).
if [ -n "$PROFILER" ]; then
  for endpoint in "${endpoints[@]}"; do
    for name in ours bare; do
      [ -n "${pid[$name]:-}" ] || continue
      out="$work/profile-$name-$endpoint"
      log "profiling $name, $endpoint: wrk -t$THREADS -c${CONNECTIONS[0]} -d$PROFILE_DURATION"
      measured bash -c '
        jcmd "$1" JVMTI.agent_load "$2" "\"start,event=cpu,interval=$3\"" >/dev/null
        wrk -t"$4" -c"$5" -d"$6" "$7" >"$8.wrk"
        jcmd "$1" JVMTI.agent_load "$2" "\"stop,file=$8.collapsed,collapsed\"" >/dev/null' _ "${pid[$name]}" \
        "$PROFILER" "$PROFILE_INTERVAL" "$THREADS" "${CONNECTIONS[0]}" "$PROFILE_DURATION" "$(url "$name" "$endpoint")" \
        "$out"
    done
  done
fi

python3 scripts/load-test-report.py "$work" | tee "$work/report.md"

# Correctness: a shorter run per server and endpoint that keeps every answer; each wrk thread keeps its own, and done()
# gathers them with thread:get, so IDs answered twice by different threads are found too.
cat >"$work/check.lua" <<'EOF'
local threads = {}
function setup(thread)
  table.insert(threads, thread)
end
function init(args)
  ids = {}
  count = 0
  bad = 0
  first_bad = ""
end
function response(status, headers, body)
  count = count + 1
  if status == 200 and body:match("^%d+$") then
    ids[#ids + 1] = body
  else
    bad = bad + 1
    if first_bad == "" then first_bad = status .. " " .. body:sub(1, 200) end
  end
end
function done(summary, latency, requests)
  local seen, total, bad_total, duplicates, example = {}, 0, 0, 0, ""
  for _, thread in ipairs(threads) do
    total = total + thread:get("count")
    bad_total = bad_total + thread:get("bad")
    if example == "" then example = thread:get("first_bad") end
    for _, id in ipairs(thread:get("ids")) do
      if seen[id] then duplicates = duplicates + 1 else seen[id] = true end
    end
  end
  io.write(string.format("check: responses=%d non200=%d duplicates=%d socket_errors=%d\n", total, bad_total,
    duplicates, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
  if example ~= "" then io.write("check: first bad answer: " .. example .. "\n") end
end
EOF
if [ "$CHECK" = 1 ]; then
  failed=0
  for name in "${names[@]}"; do
    [ "$name" = bare ] && continue
    for endpoint in "${endpoints[@]}"; do
      out="$work/check-$name-$endpoint.out"
      measured wrk -t"$THREADS" -c"${CONNECTIONS[0]}" -d"$CHECK_DURATION" -s "$work/check.lua" "$(url "$name" "$endpoint")" \
        >"$out"
      line=$(grep '^check: responses' "$out" || echo "check: no summary")
      log "correctness, $name, $endpoint: ${line#check: }"
      grep -q '^check: first bad answer' "$out" && log "  $(grep '^check: first bad answer' "$out")"
      if ! [[ $line =~ responses=[1-9][0-9]*\ non200=0\ duplicates=0 ]]; then failed=1; fi
    done
  done
  if [ "$failed" = 1 ]; then
    log "ERROR: the correctness pass found answers other than 200 with an ID, or IDs answered twice"
    exit 1
  fi
fi
if [ "$STORE" = h2 ]; then
  log "IDs issued by ours (from /api/monitor): $(curl -fs "http://127.0.0.1:${port[ours]}/api/monitor" | python3 -c 'import json, sys; m = json.load(sys.stdin); print({k["key"]: k["issuedCount"] for k in m["segmentKeys"]}, "snowflake:", m["snowflake"]["issuedCount"])')"
fi
