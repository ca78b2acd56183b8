#!/usr/bin/env bash
# The version matrix of CI, beside the full build on Java 17 and the Spring Boot of the POM (.ci/run runs that first).
# Each job compiles every module, main and test code, and runs the unit tests of id-starter-core and
# id-starter-autoconfigure, where the Java and Spring Boot versions show: the algorithms, the auto-configuration,
# conditions, properties binding, failure analyzers, actuator and entity-ID integrations. Not run here: the
# integration tests against real servers and the drills (they exercise the stores, which do not change with these
# versions, and take ~10 minutes), and the Lincheck model checks (they explore interleavings, not the JVM, and take
# minutes each).
#
#   scripts/ci-matrix.sh                 # every job
#   scripts/ci-matrix.sh java25          # one job: java25, boot-oldest
#
# JAVA25_HOME: the Java 25 JDK (default /usr/lib/jvm/temurin-25-jdk-amd64).
set -euo pipefail
cd "$(dirname "$0")/.."

java25=${JAVA25_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
# The oldest Spring Boot the project supports: the newest patch of its oldest line (spring-boot.minimum-version in
# pom.xml is that line's first release; the check at start accepts every release from there on).
boot_oldest=4.0.9

subset=(-pl id-starter-core,id-starter-autoconfigure -am -DskipModelChecks
	'-Dtest=*Tests,!*IntegrationTests,!*LincheckTests,!*ModelCheckTests' -Dsurefire.failIfNoSpecifiedTests=false)

job() { # name, then the environment and Maven arguments of the job
	local name=$1 started=$SECONDS
	shift
	echo "ci-matrix: $name"
	# Every module compiles, main and test code (the integration tests' too); then the unit tests of the subset.
	env "$@" -B -ntp -q test-compile
	local log=target/ci-matrix-${name%%:*}.log
	mkdir -p target
	if ! env "$@" -B -ntp test "${subset[@]}" > "$log" 2>&1; then
		grep -E 'Tests run:.*(Failures: [1-9]|Errors: [1-9])|ERROR' "$log" | head -40
		echo "ci-matrix: $name failed (the whole output: $log)" >&2
		exit 1
	fi
	grep -E '^\[(INFO|WARNING)\] Tests run:' "$log" | grep -v ' -- in ' || true
	echo "ci-matrix: $name passed in $(( SECONDS - started )) s"
}

run_java25() {
	[ -x "$java25/bin/java" ] || { echo "ci-matrix: no Java 25 at $java25; install a JDK 25 there or set JAVA25_HOME" >&2; exit 1; }
	job "java25: Java 25, Spring Boot of the POM" JAVA_HOME="$java25" ./mvnw
}

run_boot_oldest() {
	job "boot-oldest: Java 17, Spring Boot $boot_oldest (the oldest supported line)" ./mvnw -Dspring-boot.version="$boot_oldest"
}

jobs=("$@")
[ ${#jobs[@]} -gt 0 ] || jobs=(java25 boot-oldest)
for name in "${jobs[@]}"; do
	case "$name" in
		java25) run_java25 ;;
		boot-oldest) run_boot_oldest ;;
		*) echo "ci-matrix: unknown job $name (java25, boot-oldest)" >&2; exit 2 ;;
	esac
done
