#!/usr/bin/env bash
# Measures the throughput of the sample ID server with wrk, on loopback only: starts the server jar on a free port
# with a fresh data directory (embedded H2), warms it up, runs wrk against /api/segment/get/{key} and
# /api/snowflake/get/{key}, prints wrk's report for each with the server's CPU time per request (user + system, read
# from /proc/<pid>/stat before and after the run: unlike requests/s it does not move with what else the machine runs),
# and stops the server. Installs Debian's wrk when missing and
# builds the jar when it is not there (or when BUILD=1). Not run by CI: the numbers go into docs/server.md by hand.
#
# Usage: scripts/load-test.sh [duration (20s)] [threads (2)] [connections (50)]
# Environment: PORT (default: a free port), JAVA_OPTS, BUILD=1 to rebuild the jar, WARMUP (default 5s).
set -euo pipefail

DURATION=${1:-20s}
THREADS=${2:-2}
CONNECTIONS=${3:-50}
WARMUP=${WARMUP:-5s}

cd "$(dirname "$0")/.."

log() { printf '[load-test] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

if ! command -v wrk >/dev/null; then
  log "installing wrk"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
fi

find_jar() { find id-starter-sample/target -maxdepth 1 -name 'id-starter-sample-*.jar' ! -name '*-plain.jar' 2>/dev/null | head -n 1; }
jar=$(find_jar)
if [ -z "$jar" ] || [ "${BUILD:-0}" = 1 ]; then
  log "building the server jar"
  ./mvnw -B -ntp -q -pl id-starter-sample -am package -DskipTests
  jar=$(find_jar)
fi

port=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
data=$(mktemp -d -t id-server-load-XXXXXX)
log "starting $jar on 127.0.0.1:$port (data in $data)"
# shellcheck disable=SC2086
java ${JAVA_OPTS:-} -jar "$jar" --server.address=127.0.0.1 --server.port="$port" --id-server.data-dir="$data" \
  >"$data/server.log" 2>&1 &
server=$!
stop() {
  kill "$server" 2>/dev/null && wait "$server" 2>/dev/null || true
  log "server stopped; its log: $data/server.log"
}
trap stop EXIT

base="http://127.0.0.1:$port"
ticks_per_second=$(getconf CLK_TCK)
cpu_ticks() { # user + system time of the server so far, in clock ticks (fields 14 and 15 of /proc/<pid>/stat)
  sed 's/^.*) //' "/proc/$server/stat" | awk '{ print $12 + $13 }'
}
for _ in $(seq 1 120); do
  curl -fs "$base/actuator/health" >/dev/null 2>&1 && break
  kill -0 "$server" 2>/dev/null || { log "ERROR: the server exited; see $data/server.log"; exit 1; }
  sleep 0.5
done
curl -fs "$base/actuator/health" >/dev/null || { log "ERROR: the server did not answer within 60 s"; exit 1; }

urls=("$base/api/segment/get/order" "$base/api/snowflake/get/order")
for url in "${urls[@]}"; do
  log "warm-up: wrk -t$THREADS -c$CONNECTIONS -d$WARMUP $url"
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" "$url" >/dev/null
done

log "$(nproc) cores, $(java -version 2>&1 | head -n 1), wrk and the server on the same machine;" \
  "load average before the run: $(cut -d ' ' -f 1-3 /proc/loadavg)"
for url in "${urls[@]}"; do
  log "wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency $url"
  before=$(cpu_ticks)
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency "$url" | tee "$data/wrk.out"
  after=$(cpu_ticks)
  requests=$(awk '/requests in/ { print $1 }' "$data/wrk.out")
  log "server CPU: $(( (after - before) * 1000 / ticks_per_second )) ms for $requests requests =" \
    "$(awk -v t="$((after - before))" -v hz="$ticks_per_second" -v n="$requests" 'BEGIN { printf "%.1f", t * 1e6 / hz / n }') µs per request"
  if grep -q 'Non-2xx or 3xx responses' "$data/wrk.out"; then
    log "ERROR: some answers were not 2xx; see $data/server.log"
    exit 1
  fi
done
log "IDs issued (from /api/monitor): $(curl -fs "$base/api/monitor" | python3 -c 'import json, sys; m = json.load(sys.stdin); print({k["key"]: k["issuedCount"] for k in m["segmentKeys"]}, "snowflake:", m["snowflake"]["issuedCount"])')"
