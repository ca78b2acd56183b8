#!/usr/bin/env bash
# Builds a release of id-starter into a local staging repository, then builds and tests a new application
# (id-starter-release-tests/) against that repository alone: no reactor, no SNAPSHOT, an empty local repository whose
# third-party artifacts are copied on demand from ~/.m2 (nothing is downloaded), and id-starter's from staging. Then
# starts the ID server distribution from staging and asks it for IDs, starts two servers from its fleet example on the
# test PostgreSQL (scripts/ensure-test-services.sh) with an application in client mode on them, checks that an
# application on Spring Boot 3 refuses to start, and builds the docs' quick start from their pom.xml and snippets.
#
#   scripts/release-test.sh                 # version: the POM's revision without -SNAPSHOT
#   RELEASE_TEST_SOURCES=<dir> scripts/release-test.sh   # build the application from <dir> (main/, test/) instead
#   RELEASE_TEST_REUSE_STAGING=1 scripts/release-test.sh  # skip the deploy, reuse the last run's staging
#   RELEASE_TEST_POM=<file>                               # with this POM instead (its id-starter.version and
#                                                         # spring-boot.version properties are set from this build)
#
# Needs the third-party artifacts in ~/.m2 (a build of the project has fetched them: run after ./mvnw verify).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
revision=$(sed -n 's:.*<revision>\(.*\)</revision>.*:\1:p' pom.xml | head -1)
version=${RELEASE_VERSION:-${revision%-SNAPSHOT}}
boot=$(sed -n 's:.*<spring-boot.version>\(.*\)</spring-boot.version>.*:\1:p' pom.xml | head -1)
work=$root/target/release-test
staging=$work/staging
sources=${RELEASE_TEST_SOURCES:-$root/id-starter-release-tests/src}
app_pom=${RELEASE_TEST_POM:-$root/id-starter-release-tests/pom.xml}
seed=${RELEASE_TEST_SEED:-$HOME/.m2/repository}
fail() { echo "release-test: $*" >&2; exit 1; }
started_port() { # pid, log: waits until the server answers, prints the port it took
	local port=
	for _ in $(seq 1 120); do
		port=$(sed -n 's/.*Tomcat started on port \([0-9]*\).*/\1/p' "$2" | head -1)
		[ -n "$port" ] && curl -fs "http://127.0.0.1:$port/actuator/health" > /dev/null 2>&1 && { echo "$port"; return; }
		kill -0 "$1" 2>/dev/null || { tail -40 "$2" >&2; fail "the ID server exited ($2)"; }
		sleep 1
	done
	tail -40 "$2" >&2
	fail "the ID server did not answer within 120 s ($2)"
}
step() { echo "release-test: $* ($(( SECONDS - started )) s)"; }
started=$SECONDS

case "$version" in *SNAPSHOT*) fail "the release version must not be a SNAPSHOT: $version" ;; esac
if [ -n "${RELEASE_TEST_REUSE_STAGING:-}" ] && [ -d "$staging/io" ]; then
	# Only the steps after the deploy, against the release staged by the previous run.
	find "$work" -mindepth 1 -maxdepth 1 ! -name staging -exec rm -rf {} +
	mkdir -p "$work/repository" "$work/app"
else
	rm -rf "$work"
	mkdir -p "$staging" "$work/repository" "$work/app"

	# 1. The release, as the "Releasing" section of README.md deploys it (without -Psign: no key needed here).
	step "deploying $version to $staging"
	./mvnw -B -ntp -q -Prelease deploy -Drevision="$version" -DskipTests \
		-pl id-starter-bom,id-starter-core,id-starter-autoconfigure,id-starter-spring-boot-starter,id-starter-test-support,id-starter-sample -am \
		-DaltDeploymentRepository="staging::file://$staging"
fi

# 2. What Maven Central asks of every published artifact, and the BOM's versions.
step "checking the staged artifacts"
[ -z "$(find "$staging" -name '*SNAPSHOT*' -print -quit)" ] || fail "a SNAPSHOT was staged"
dir=$staging/io/idstarter
for module in id-starter-core id-starter-autoconfigure id-starter-spring-boot-starter id-starter-test-support; do
	for file in "$module-$version.jar" "$module-$version-sources.jar" "$module-$version-javadoc.jar" "$module-$version.pom"; do
		[ -f "$dir/$module/$version/$file" ] || fail "$file was not staged"
	done
done
[ -f "$dir/id-starter-bom/$version/id-starter-bom-$version.pom" ] || fail "the BOM was not staged"
distribution=$dir/id-starter-sample/$version/id-starter-sample-$version-distribution.tar.gz
[ -f "$distribution" ] || fail "the ID server distribution was not staged"
for pom in "$dir"/*/"$version"/*.pom; do
	for element in '<name>' '<description>' '<url>https://' '<licenses>' '<developers>' '<scm'; do
		grep -q "$element" "$pom" || fail "$(basename "$pom") has no $element"
	done
	! grep -q '\${' "$pom" || fail "$(basename "$pom") has an unresolved property: $(grep -m1 '\${' "$pom")"
done
bom=$dir/id-starter-bom/$version/id-starter-bom-$version.pom
for property in curator.version jetcd.version mongo-java-server.version; do
	expected=$(sed -n "s:.*<$property>\(.*\)</$property>.*:\1:p" pom.xml | head -1)
	grep -q "<version>$expected</version>" "$bom" || fail "the BOM does not manage $property $expected of the parent POM"
done

# 3. The application, with its own empty local repository: id-starter from staging, the rest from the seed.
step "building the application against staging only"
cp "$app_pom" "$work/app/pom.xml"
cp -r "$sources" "$work/app/src"
cat > "$work/settings.xml" <<SETTINGS
<settings>
  <localRepository>$work/repository</localRepository>
  <mirrors>
    <mirror><id>seed</id><mirrorOf>*,!staging</mirrorOf><url>file://$seed</url></mirror>
  </mirrors>
  <profiles>
    <profile>
      <id>staging</id>
      <repositories>
        <repository>
          <id>staging</id>
          <url>file://$staging</url>
          <snapshots><enabled>false</enabled></snapshots>
        </repository>
      </repositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>staging</activeProfile></activeProfiles>
</settings>
SETTINGS
./mvnw -B -ntp -s "$work/settings.xml" -f "$work/app/pom.xml" verify \
	-Did-starter.version="$version" -Dspring-boot.version="$boot" > "$work/app-build.log" 2>&1 \
	|| { tail -60 "$work/app-build.log"; fail "the application did not build or pass its tests ($work/app-build.log)"; }
grep -E 'Tests run:|release [A-Z]+' "$work/app-build.log" | grep -v ' -- in ' || true
[ -z "$(find "$work/repository" -name '*SNAPSHOT*' -print -quit)" ] || fail "a SNAPSHOT reached the application"
while IFS= read -r marker; do
	grep -q '>staging=' "$marker" || fail "$(dirname "$marker") did not come from staging"
done < <(find "$work/repository/io/idstarter" -name _remote.repositories)

# 4. The ID server distribution: unpack, start, ask for IDs, stop with SIGTERM.
step "starting the ID server distribution"
tar -xzf "$distribution" -C "$work"
server=$work/id-server-$version
"$server/bin/id-server" --server.port=0 > "$work/id-server.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null || true' EXIT
port=$(started_port "$pid" "$work/id-server.log")
segment=$(curl -fs "http://127.0.0.1:$port/api/segment/get/order") || { tail -40 "$work/id-server.log"; fail "no segment ID"; }
snowflake=$(curl -fs "http://127.0.0.1:$port/api/snowflake/get/order") || fail "no Snowflake ID"
[[ "$segment" =~ ^[0-9]+$ && "$snowflake" =~ ^[0-9]+$ ]] || fail "not IDs: '$segment' '$snowflake'"
[ -f "$server/data/id-server.mv.db" ] || fail "the server kept its state elsewhere than $server/data"
kill -TERM "$pid"
wait "$pid" || true
trap - EXIT
# 4b. Its fleet example: two servers from config/examples/fleet-server.yml on the test PostgreSQL (a schema of their
#     own, dropped afterwards), each answering the example's client on the fleet API with a range of its own.
step "starting two ID servers from the fleet example"
schema=release_test_$$
export PGPASSWORD=idstarter PGOPTIONS='--client-min-messages=warning'
psql -q -h 127.0.0.1 -U idstarter -d idstarter -c "CREATE SCHEMA $schema" \
	|| fail "cannot create a schema on the test PostgreSQL (scripts/ensure-test-services.sh starts it)"
token=release-test-token-0123456789
fleet_pids=()
stop_fleet() {
	kill "${fleet_pids[@]}" 2>/dev/null || true
	wait "${fleet_pids[@]}" 2>/dev/null || true
	psql -q -h 127.0.0.1 -U idstarter -d idstarter -c "DROP SCHEMA IF EXISTS $schema CASCADE" || true
}
trap stop_fleet EXIT
ranges=()
fleet_urls=
for n in 1 2; do
	fleet=$work/fleet-$n
	cp -r "$server" "$fleet"
	rm -rf "$fleet/data"
	cp "$fleet/config/examples/fleet-server.yml" "$fleet/config/application.yml"
	ID_DB_URL="jdbc:postgresql://127.0.0.1:5432/idstarter?currentSchema=$schema" ID_DB_USER=idstarter \
		ID_DB_PASSWORD=idstarter ORDER_SERVICE_ID_TOKEN=$token \
		"$fleet/bin/id-server" --server.port=0 > "$fleet.log" 2>&1 &
	fleet_pids+=($!)
	port=$(started_port "${fleet_pids[-1]}" "$fleet.log")
	range=$(curl -fs -X POST -H 'Content-Type: application/json' -H "Authorization: Bearer $token" \
		-d "{\"step\":100,\"requestId\":\"release-test-$n\"}" "http://127.0.0.1:$port/api/fleet/segments/order/ranges") \
		|| { tail -40 "$fleet.log"; fail "fleet server $n gave the example's client no range"; }
	ranges+=("$(echo "$range" | sed -n 's/.*"start":\([0-9]*\).*/\1/p')")
	fleet_urls+="${fleet_urls:+,}http://127.0.0.1:$port"
done
[ "${ranges[0]}" != "${ranges[1]}" ] || fail "both fleet servers handed out the range starting at ${ranges[0]}"
# The example's client: an application in client mode (SEGMENT and HTTP), built from staging like the first one.
step "building an application in client mode against the two servers"
cp -r "$root/id-starter-release-tests/client-mode" "$work/client-mode"
./mvnw -B -ntp -s "$work/settings.xml" -f "$work/client-mode/pom.xml" verify -Did-starter.version="$version" \
	-Dspring-boot.version="$boot" -Did-servers="$fleet_urls" -Did-servers.token="$token" > "$work/client-mode.log" 2>&1 \
	|| { tail -60 "$work/client-mode.log"; fail "the client-mode application did not build or pass its tests ($work/client-mode.log)"; }
grep -E 'release HTTP' "$work/client-mode.log" || fail "the client-mode test did not report its IDs"
stop_fleet
trap - EXIT
echo "release-test: fleet example: ranges starting at ${ranges[0]} and ${ranges[1]} from two servers"

# 5. An application on Spring Boot 3 with the staged id-starter: its start fails with the report naming the supported
#    versions. Its own local repository; Spring Boot 3 is downloaded, never copied into ~/.m2.
step "starting an application on Spring Boot 3"
legacy=$work/spring-boot-3
cp -r "$root/id-starter-release-tests/spring-boot-3" "$legacy"
cat > "$work/settings-spring-boot-3.xml" <<SETTINGS
<settings>
  <localRepository>$work/repository-spring-boot-3</localRepository>
  <profiles>
    <profile>
      <id>staging</id>
      <repositories>
        <repository><id>staging</id><url>file://$staging</url><snapshots><enabled>false</enabled></snapshots></repository>
        <repository><id>seed</id><url>file://$seed</url><snapshots><enabled>false</enabled></snapshots></repository>
      </repositories>
      <pluginRepositories>
        <pluginRepository><id>seed</id><url>file://$seed</url><snapshots><enabled>false</enabled></snapshots></pluginRepository>
      </pluginRepositories>
    </profile>
  </profiles>
  <activeProfiles><activeProfile>staging</activeProfile></activeProfiles>
</settings>
SETTINGS
./mvnw -B -ntp -q -s "$work/settings-spring-boot-3.xml" -f "$legacy/pom.xml" package -Did-starter.version="$version" \
	> "$work/spring-boot-3-build.log" 2>&1 || { tail -40 "$work/spring-boot-3-build.log"; fail "the Spring Boot 3 application did not build"; }
if (cd "$legacy" && timeout 120 java -jar target/id-starter-on-spring-boot-3-1.0.0.jar > "$work/spring-boot-3.log" 2>&1); then
	fail "the application on Spring Boot 3 started; it must refuse to ($work/spring-boot-3.log)"
fi
grep -q "supports Spring Boot 4.x from" "$work/spring-boot-3.log" \
	|| { tail -40 "$work/spring-boot-3.log"; fail "the application on Spring Boot 3 failed without the version report"; }
grep -A2 '^Description:' "$work/spring-boot-3.log" | tail -1

# 6. The application the docs describe, from nothing but what they show: the SEGMENT pom.xml of docs/maven.md, the
#    quick start's classes and the testing guide's test. id-starter-docs-snippets keeps these files and checks that the
#    docs show them as they are. id-starter from staging only; the rest from the seed, else downloaded (a pom.xml of
#    the docs names spring-boot-starter-parent, which the project's own build never needs).
step "building the docs' quick start against staging"
docs_app=$work/docs-app
snippets=$root/id-starter-docs-snippets/src
mkdir -p "$docs_app/src/main/java/com/example/orders" "$docs_app/src/test/java/com/example/orders"
sed "s|<version>$revision</version>|<version>$version</version>|" "$snippets/docs/poms/segment/pom.xml" > "$docs_app/pom.xml"
grep -q "<version>$version</version>" "$docs_app/pom.xml" || fail "the docs' SEGMENT pom.xml does not name id-starter $revision"
cp "$snippets/main/java/com/example/orders/OrderApplication.java" "$docs_app/src/main/java/com/example/orders/"
cp "$snippets/test/java/com/example/orders/OrderServiceTests.java" "$docs_app/src/test/java/com/example/orders/"
sed "s:<localRepository>.*</localRepository>:<localRepository>$work/repository-docs</localRepository>:" \
	"$work/settings-spring-boot-3.xml" > "$work/settings-docs.xml"
# The pom.xml is for PostgreSQL (the test uses in-memory stores, but Spring Boot still builds the DataSource).
SPRING_DATASOURCE_URL=jdbc:postgresql://127.0.0.1:5432/idstarter SPRING_DATASOURCE_USERNAME=idstarter \
	SPRING_DATASOURCE_PASSWORD=idstarter ./mvnw -B -ntp -s "$work/settings-docs.xml" -f "$docs_app/pom.xml" verify \
	> "$work/docs-app.log" 2>&1 || { tail -60 "$work/docs-app.log"; fail "the docs' quick start did not build or pass its test ($work/docs-app.log)"; }
grep -q 'Tests run: 1, Failures: 0, Errors: 0, Skipped: 0' "$work/docs-app.log" || fail "the docs' test did not run ($work/docs-app.log)"
while IFS= read -r marker; do
	grep -q '>staging=' "$marker" || fail "$(dirname "$marker") did not come from staging"
done < <(find "$work/repository-docs/io/idstarter" -name _remote.repositories)

step "done: release $version staged and used; the ID server issued segment ID $segment and Snowflake ID $snowflake"
