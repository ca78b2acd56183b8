#!/usr/bin/env bash
# Runs the benchmarks whose results are written down in docs/benchmarks.md, one JMH report (text and JSON) per run,
# with the load average before and after each run and sampled every 15 s meanwhile (load.txt): figures taken while
# other processes compete for the two cores are noisy, and the load says how much. Ends with the report of every run
# in the directory (scripts/benchmark-report.py, also in report.md): each figure as a ratio to the bare AtomicLong of
# the same run, and the performance targets those runs cover, met or missed.
# Build first:  ./mvnw -B -ntp -pl id-starter-benchmarks -am package -DskipTests
# Usage:        scripts/benchmarks.sh [output directory] [run name ...]
#               (default directory id-starter-benchmarks/target/results; default runs: all, about 30 minutes)
#               JMH_ARGS='-f 1 -i 3' adds options to every JMH run (fewer forks or iterations: shorter, noisier)
# Not in the default runs:
#               sequence-inserts  SequenceInsertLoad: JPA inserts on the local PostgreSQL with IDs from Hibernate's pooled
#                                 and pooled-lo and from id-starter's sequence store (marks in memory, and in a file), at
#                                 1, 2 and 8 threads, steps 50 and 1000, with and without synchronous_commit, 3 rounds
#                                 (~16 minutes); SEQUENCE_JAVA_OPTS='-Dinserts.rounds=1 -Dinserts.seconds=2' and the
#                                 other inserts.* properties of its javadoc shorten it. Builds the module's class path
#                                 when missing (or with BUILD=1) and holds the lock file MEASURE_LOCK
#                                 (/tmp/idstarter-measure.lock) while it runs.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-id-starter-benchmarks/target/results}
shift || true
jar=id-starter-benchmarks/target/benchmarks.jar
mkdir -p "$out"

all=(segment-t1 segment-t2 snowflake-t1 snowflake-t2 batch latency codec round-trips)
runs=("${@:-${all[@]}}")

(while sleep 15; do echo "$(date -Is) $(cut -d' ' -f1-3 /proc/loadavg)"; done) >>"$out/load.txt" &
sampler=$!
trap 'kill "$sampler"' EXIT

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
        flock "${MEASURE_LOCK:-/tmp/idstarter-measure.lock}" java -Xms1g -Xmx1g ${SEQUENCE_JAVA_OPTS:-} \
          -cp "id-starter-benchmarks/target/classes:$(cat "$classpath")" io.idstarter.sequence.SequenceInsertLoad \
          "$out/$run.tsv"
        echo "# end $(date -Is) load $(cut -d' ' -f1-3 /proc/loadavg)"
      } >"$out/$run.txt" 2>&1 || { cat "$out/$run.txt" >&2; exit 1; } ;;
    *) echo "unknown run '$run'; runs: ${all[*]} sequence-inserts" >&2; exit 2 ;;
  esac
done

python3 scripts/benchmark-report.py "$out" | tee "$out/report.md"
