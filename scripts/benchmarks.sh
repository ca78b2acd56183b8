#!/usr/bin/env bash
# Runs the benchmarks whose results are written down in docs/benchmarks.md, one JMH report (text and JSON) per run,
# with the load average before and after each run and sampled every 15 s meanwhile (load.txt): figures taken while
# other processes compete for the two cores are noisy, and the load says how much. Ends with the report of every run
# in the directory (scripts/benchmark-report.py, also in report.md): each figure as a ratio to the bare AtomicLong of
# the same run, and the performance targets those runs cover, met or missed.
# Build first:  ./mvnw -B -ntp -pl id-starter-benchmarks,id-starter-startup-benchmarks -am package -DskipTests
# Usage:        scripts/benchmarks.sh [output directory] [run name ...]
#               (default directory id-starter-benchmarks/target/results; default runs: all, about 45 minutes)
#               JMH_ARGS='-f 1 -i 3' adds options to every JMH run (fewer forks or iterations: shorter, noisier)
#               STARTUP_ARGS='runs=20' and MANY_KEYS_ARGS='100000 10000 postgres' change the start-up and many-keys
#               runs; those two hold the lock file MEASURE_LOCK (flock, default /tmp/idstarter-measure.lock) while they
#               run, as scripts/load-test.sh does, so that they never time each other or a load test.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-id-starter-benchmarks/target/results}
shift || true
jar=id-starter-benchmarks/target/benchmarks.jar
mkdir -p "$out"

all=(segment-t1 segment-t2 snowflake-t1 snowflake-t2 batch latency codec round-trips startup many-keys)
runs=("${@:-${all[@]}}")

(while sleep 15; do echo "$(date -Is) $(cut -d' ' -f1-3 /proc/loadavg)"; done) >>"$out/load.txt" &
sampler=$!
trap 'kill "$sampler"' EXIT

MEASURE_LOCK=${MEASURE_LOCK:-/tmp/idstarter-measure.lock}

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
  # JMH takes a machine-wide lock (/tmp/jmh.lock) so that two runs never time each other: wait for it.
  until {
    echo "# start $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)"
    # shellcheck disable=SC2086
    java -jar "$jar" "$@" ${JMH_ARGS:-} -rf json -rff "$out/$name.json"
  } >"$out/$name.txt" 2>&1; do
    grep -q 'Unable to acquire the JMH lock' "$out/$name.txt" || { cat "$out/$name.txt" >&2; return 1; }
    echo "$(date -Is) $name: another JMH run holds the lock; waiting"
    sleep 20
  done
  echo "# end $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/$name.txt"
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
    *) echo "unknown run '$run'; runs: ${all[*]}" >&2; exit 2 ;;
  esac
done

python3 scripts/benchmark-report.py "$out" | tee "$out/report.md"
