#!/usr/bin/env bash
# Measures the throughput of the sample ID server with wrk, on loopback only, and compares it with Meituan's Leaf
# server when given Leaf's jar. Starts each server on a free port, warms it up, runs wrk against
# /api/segment/get/{key} and /api/snowflake/get/{key}, and for every timed run takes the server's CPU time per request
# (user + system, read from /proc/<pid>/stat before and after the run: unlike requests/s it does not move much with
# what else the machine runs) and the load average. Servers take turns, round after round (ours, Leaf, ours, Leaf...),
# so that a change of the machine's load hits each alike; a summary table per endpoint gives each server's median
# requests/s, p50, p99 and CPU per request, and the ratios ours/Leaf (and ours/base).
# A separate, shorter correctness run per server and endpoint (wrk with a Lua script that keeps every answer) fails the
# script on any answer other than 200 with a decimal body, or any ID answered twice.
# Every wrk run holds the lock file MEASURE_LOCK (flock), so that it never overlaps with other measurements that take
# the same lock (JMH runs). Installs Debian's wrk when missing and builds the jar when it is not there (or BUILD=1),
# never while holding the lock. Not run by CI: the numbers go into docs/server.md by hand.
#
# Usage: scripts/load-test.sh [duration (20s)] [threads (2)] [connections (50)]
#
# Environment:
#   STORE          h2 (default: a fresh data directory) or mariadb (profile mariadb, database MARIADB_DATABASE,
#                  dropped and created again by the script)
#   LEAF_JAR       Leaf's leaf-server jar (see docs/server.md for building it): also runs Leaf on MariaDB (database
#                  LEAF_DATABASE with table leaf_alloc and the key, created by the script) and ZooKeeper LEAF_ZK;
#                  implies STORE=mariadb
#   BASE_JAR       a second build of our server to run beside JAR ("base"), each on its own database, for measuring
#                  one change against the build without it; BASE_ARGS are its extra arguments
#   JAR            our server's jar (default: the sample module's); OURS_ARGS are its extra arguments (e.g.
#                  --spring.threads.virtual.enabled=true)
#   ROUNDS         timed runs per server and endpoint (default 1, 3 when Leaf or a base runs)
#   WARMUP         warm-up per server and endpoint (default 5s)
#   CHECK          1 (default) runs the correctness pass, 0 skips it; CHECK_DURATION (default 3s)
#   KEY            the key asked for (default order)
#   JAVA_OPTS      JVM options of our server(s); LEAF_JAVA_OPTS of Leaf's
#   MARIADB_HOST / MARIADB_PORT / MARIADB_USER / MARIADB_PASSWORD (default 127.0.0.1 / 3306 / root / empty),
#   MARIADB_DATABASE (default idstarter_load), LEAF_DATABASE (default leaf), LEAF_ZK (default 127.0.0.1:12181)
#   MEASURE_LOCK   lock file held during every wrk run (default /tmp/idstarter-measure.lock)
#   PORT / BASE_PORT / LEAF_PORT   ports (default: free ports)
set -euo pipefail

DURATION=${1:-20s}
THREADS=${2:-2}
CONNECTIONS=${3:-50}
WARMUP=${WARMUP:-5s}
KEY=${KEY:-order}
CHECK=${CHECK:-1}
CHECK_DURATION=${CHECK_DURATION:-3s}
MEASURE_LOCK=${MEASURE_LOCK:-/tmp/idstarter-measure.lock}
LEAF_JAR=${LEAF_JAR:-}
BASE_JAR=${BASE_JAR:-}
STORE=${STORE:-h2}
if [ -n "$LEAF_JAR" ]; then STORE=mariadb; fi
if [ -n "$LEAF_JAR" ] || [ -n "$BASE_JAR" ]; then ROUNDS=${ROUNDS:-3}; else ROUNDS=${ROUNDS:-1}; fi
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

if ! command -v wrk >/dev/null; then
  log "installing wrk"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

find_jar() { find id-starter-sample/target -maxdepth 1 -name 'id-starter-sample-*.jar' ! -name '*-plain.jar' 2>/dev/null | head -n 1; }
jar=${JAR:-$(find_jar)}
if [ -z "${JAR:-}" ] && { [ -z "$jar" ] || [ "${BUILD:-0}" = 1 ]; }; then
  log "building the server jar"
  ./mvnw -B -ntp -q -pl id-starter-sample -am package -DskipTests
  jar=$(find_jar)
fi

work=$(mktemp -d -t id-server-load-XXXXXX)
ticks_per_second=$(getconf CLK_TCK)

# Servers, by name: ours, base (BASE_JAR), leaf (LEAF_JAR).
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
  log "starting $name: $server_jar on 127.0.0.1:$server_port ($STORE${extra:+, $extra})"
  # shellcheck disable=SC2086
  java ${JAVA_OPTS:-} -jar "$server_jar" "${args[@]}" $extra >"$work/$name.log" 2>&1 &
  pid[$name]=$!
  port[$name]=$server_port
  names+=("$name")
  wait_until_up "$name" "http://127.0.0.1:$server_port/actuator/health"
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
  (cd "$work/leaf-conf" && exec java --add-opens java.base/java.lang=ALL-UNNAMED ${LEAF_JAVA_OPTS:-} \
    -Dloader.path="$work/leaf-conf" -cp "$LEAF_JAR" org.springframework.boot.loader.PropertiesLauncher \
    --server.address=127.0.0.1 --server.port="$server_port") >"$work/leaf.log" 2>&1 &
  pid[leaf]=$!
  port[leaf]=$server_port
  names+=(leaf)
  wait_until_up leaf "http://127.0.0.1:$server_port/api/segment/get/$KEY"
}

start_ours ours "$jar" "${PORT:-$(free_port)}" "$MARIADB_DATABASE" "${OURS_ARGS:-}"
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

log "$(nproc) cores, $(java -version 2>&1 | head -n 1), wrk -t$THREADS -c$CONNECTIONS and the servers on the same" \
  "machine; servers: ${names[*]}; store: $STORE; $ROUNDS round(s) of $DURATION"
for name in "${names[@]}"; do
  for endpoint in "${endpoints[@]}"; do
    log "warm-up $name: wrk -t$THREADS -c$CONNECTIONS -d$WARMUP $(url "$name" "$endpoint")"
    measured wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" "$(url "$name" "$endpoint")" >/dev/null
  done
done

# One timed run: writes "name endpoint round req/s p50 p99 cpu-us-per-request load-average non-2xx" to results.
results=$work/results.txt
: >"$results"
timed_run() { # name endpoint round
  local name=$1 endpoint=$2 round=$3 out="$work/wrk-$1-$2-$3.out"
  # The lock is held from the first CPU reading to the last, so that the reading covers the run only.
  measured bash -c '
    load=$(cut -d " " -f 1 /proc/loadavg)
    before=$(sed "s/^.*) //" "/proc/$1/stat" | awk "{ print \$12 + \$13 }")
    wrk -t"$2" -c"$3" -d"$4" --latency "$5" >"$6"
    after=$(sed "s/^.*) //" "/proc/$1/stat" | awk "{ print \$12 + \$13 }")
    echo "$load $before $after" >"$6.cpu"' _ "${pid[$name]}" "$THREADS" "$CONNECTIONS" "$DURATION" \
    "$(url "$name" "$endpoint")" "$out"
  local load before after requests rps p50 p99 cpu non2xx
  read -r load before after <"$out.cpu"
  requests=$(awk '/requests in/ { print $1 }' "$out")
  rps=$(awk '/^Requests\/sec/ { printf "%.0f", $2 }' "$out")
  p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' "$out")")
  p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' "$out")")
  cpu=$(awk -v t="$((after - before))" -v hz="$ticks_per_second" -v n="$requests" 'BEGIN { printf "%.1f", t * 1e6 / hz / n }')
  non2xx=$(awk '/Non-2xx or 3xx responses/ { print $NF }' "$out")
  echo "$name $endpoint $round $rps $p50 $p99 $cpu $load ${non2xx:-0}" >>"$results"
  log "round $round, $name, $endpoint: $rps req/s, p50 $p50 ms, p99 $p99 ms, $cpu µs CPU per request" \
    "(load average $load before the run)${non2xx:+, $non2xx answers not 2xx}"
}

for round in $(seq 1 "$ROUNDS"); do
  for endpoint in "${endpoints[@]}"; do
    for name in "${names[@]}"; do
      timed_run "$name" "$endpoint" "$round"
    done
  done
done

# Summary: medians over the rounds, and ratios of ours to Leaf and to base.
python3 - "$results" <<'EOF'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
names = list(dict.fromkeys(r[0] for r in rows))
def med(name, endpoint, column):
    values = [float(r[column]) for r in rows if r[0] == name and r[1] == endpoint]
    return statistics.median(values)
for endpoint in dict.fromkeys(r[1] for r in rows):
    loads = [float(r[7]) for r in rows if r[1] == endpoint]
    print(f"\n[load-test] GET /api/{endpoint}/get/{{key}}: medians of {len(loads) // len(names)} round(s);"
          f" load average before the runs {min(loads):.2f}..{max(loads):.2f}")
    print("| server | requests/s | p50 ms | p99 ms | CPU µs/request |")
    print("| --- | --: | --: | --: | --: |")
    for name in names:
        print(f"| {name} | {med(name, endpoint, 3):,.0f} | {med(name, endpoint, 4):.2f} | {med(name, endpoint, 5):.2f}"
              f" | {med(name, endpoint, 6):.1f} |")
    for other in ("leaf", "base"):
        if other in names:
            print(f"ours/{other}: requests/s {med('ours', endpoint, 3) / med(other, endpoint, 3):.2f}x,"
                  f" CPU per request {med('ours', endpoint, 6) / med(other, endpoint, 6):.2f}x")
bad = [r for r in rows if r[8] != "0"]
if bad:
    print("[load-test] ERROR: answers not 2xx in " + ", ".join(f"{r[0]} {r[1]} round {r[2]}" for r in bad))
    sys.exit(1)
EOF

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
    for endpoint in "${endpoints[@]}"; do
      out="$work/check-$name-$endpoint.out"
      measured wrk -t"$THREADS" -c"$CONNECTIONS" -d"$CHECK_DURATION" -s "$work/check.lua" "$(url "$name" "$endpoint")" \
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
