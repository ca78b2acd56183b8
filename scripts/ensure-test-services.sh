#!/usr/bin/env bash
# Makes sure the servers the integration tests talk to answer on localhost, with the test user and database
# (user and password "idstarter", database "idstarter") that id-starter-test-support expects:
# PostgreSQL on 5432, MariaDB on 3306, Redis on 6379 (with an append-only file, which the ID stores demand), a
# three-node Redis Cluster on 7001-7003. Installs them from
# Debian's packages when missing and starts them without systemd. Safe to run again; does nothing for a server that
# already answers and is set up. Servers named in IDSTARTER_POSTGRES_URL / IDSTARTER_MARIADB_URL / IDSTARTER_REDIS_URL /
# IDSTARTER_REDIS_CLUSTER_NODES are left alone.
# A three-member ZooKeeper ensemble (clients on 12181-12183) and a three-member etcd cluster (clients on 12401-12403)
# run from Debian's `zookeeper` and `etcd-server` packages, with data under /var/lib/idstarter-zk-N and
# /var/lib/idstarter-etcd-N and logs under /var/log/idstarter-*.log; a member that is down is started again, and an
# ensemble that still does not form is wiped and formed afresh. IDSTARTER_ZOOKEEPER_CONNECT / IDSTARTER_ETCD_ENDPOINTS
# name external ones instead.
# Also installs Debian's Chromium and ChromeDriver for the sample server's browser test (monitor page) when missing,
# and the spin model checker (with gcc) that checks verification/lease.pml.
# Also installs iproute2 and nftables for the partition drills, which run ensemble members and clients in network
# namespaces of their own and drop packets between them with nft (they change nothing outside those namespaces).
set -euo pipefail

log() { printf '[ensure-test-services] %s\n' "$*"; }

answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_for() { # port, name
  for _ in $(seq 1 60); do answers "$1" && return 0; sleep 0.5; done
  log "ERROR: $2 did not start on 127.0.0.1:$1; see its log under /var/log"; exit 1
}

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

apt_updated=
install_packages() {
  if [ -z "$apt_updated" ]; then as_root apt-get update -qq; apt_updated=1; fi
  log "installing $*"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

ensure_postgres() {
  if [ -n "${IDSTARTER_POSTGRES_URL:-}" ]; then log "PostgreSQL: using IDSTARTER_POSTGRES_URL"; return; fi
  if ! answers 5432; then
    command -v pg_ctlcluster >/dev/null || install_packages postgresql
    local version; version=$(ls /etc/postgresql | sort -V | tail -n 1)
    [ -d "/etc/postgresql/$version/main" ] || as_root pg_createcluster "$version" main
    log "starting PostgreSQL $version"
    as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start
    wait_for 5432 PostgreSQL
  fi
  as_root runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 -d postgres <<'SQL'
SELECT 'CREATE ROLE idstarter LOGIN PASSWORD ''idstarter'' CREATEDB'
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'idstarter') \gexec
SELECT 'CREATE DATABASE idstarter OWNER idstarter'
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'idstarter') \gexec
SQL
  log "PostgreSQL ready on 127.0.0.1:5432"
}

ensure_mariadb() {
  if [ -n "${IDSTARTER_MARIADB_URL:-}" ]; then log "MariaDB: using IDSTARTER_MARIADB_URL"; return; fi
  if ! answers 3306; then
    command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || install_packages mariadb-server
    as_root install -d -o mysql -g mysql /run/mysqld
    log "starting MariaDB"
    as_root start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd -- --user=mysql
    wait_for 3306 MariaDB
  fi
  # Debian's root logs in over the Unix socket only; the tests connect over TCP as their own user.
  as_root mariadb -uroot <<'SQL'
CREATE DATABASE IF NOT EXISTS idstarter;
CREATE USER IF NOT EXISTS 'idstarter'@'127.0.0.1' IDENTIFIED BY 'idstarter';
CREATE USER IF NOT EXISTS 'idstarter'@'localhost' IDENTIFIED BY 'idstarter';
GRANT ALL PRIVILEGES ON `idstarter%`.* TO 'idstarter'@'127.0.0.1';
GRANT ALL PRIVILEGES ON `idstarter%`.* TO 'idstarter'@'localhost';
-- An application user that may read and write but not create tables (start-up with initialize-schema=always
-- against tables that exist).
CREATE USER IF NOT EXISTS 'idstarter_app'@'127.0.0.1' IDENTIFIED BY 'idstarter';
GRANT SELECT, INSERT, UPDATE, DELETE ON `idstarter`.* TO 'idstarter_app'@'127.0.0.1';
SQL
  log "MariaDB ready on 127.0.0.1:3306"
}

ensure_redis() {
  if [ -n "${IDSTARTER_REDIS_URL:-}" ]; then log "Redis: using IDSTARTER_REDIS_URL"; return; fi
  if ! answers 6379; then
    command -v redis-server >/dev/null || install_packages redis-server
    as_root install -d -o redis -g redis /var/lib/redis /var/log/redis
    log "starting Redis"
    as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly yes \
      --appendfsync everysec --dir /var/lib/redis --logfile /var/log/redis/ci.log
    wait_for 6379 Redis
  fi
  # The ID stores refuse a Redis without an append-only file (id-worker.redis.allow-volatile); turn it on in a server
  # started earlier without one. everysec, not always: a crash of the host is not what these tests are about, and
  # always makes every write wait for an fsync (12 times fewer writes per second measured here).
  if [ "$(redis-cli -p 6379 config get appendonly | tail -n 1)" != "yes" ]; then
    log "turning on Redis's append-only file (appendfsync everysec)"
    redis-cli -p 6379 config set appendfsync everysec >/dev/null
    redis-cli -p 6379 config set appendonly yes >/dev/null
  fi
  log "Redis ready on 127.0.0.1:6379 (appendonly yes)"
}

cluster_ok() { # every node answers, and the cluster says it is whole
  local port
  for port in "${cluster_ports[@]}"; do answers "$port" || return 1; done
  redis-cli -p "${cluster_ports[0]}" cluster info 2>/dev/null | grep -q '^cluster_state:ok'
}

ensure_redis_cluster() {
  # Three masters without replicas on 7001-7003, for the Redis Cluster tests; nothing kept on disk but the nodes' own
  # cluster config. A half-formed cluster (some nodes down, say) is thrown away and formed again.
  if [ -n "${IDSTARTER_REDIS_CLUSTER_NODES:-}" ]; then log "Redis Cluster: using IDSTARTER_REDIS_CLUSTER_NODES"; return; fi
  cluster_ports=(7001 7002 7003)
  if ! cluster_ok; then
    command -v redis-server >/dev/null || install_packages redis-server
    local port nodes=()
    for port in "${cluster_ports[@]}"; do
      answers "$port" && redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true
    done
    for port in "${cluster_ports[@]}"; do
      for _ in $(seq 1 20); do answers "$port" || break; sleep 0.25; done
      as_root rm -rf "/var/lib/redis-cluster/$port"
      as_root install -d -o redis -g redis "/var/lib/redis-cluster/$port" /var/log/redis
      as_root redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --cluster-enabled yes \
        --cluster-config-file nodes.conf --save "" --appendonly no --dir "/var/lib/redis-cluster/$port" \
        --logfile "/var/log/redis/cluster-$port.log"
      wait_for "$port" "Redis Cluster node"
      nodes+=("127.0.0.1:$port")
    done
    log "forming Redis Cluster on ${nodes[*]}"
    redis-cli --cluster create "${nodes[@]}" --cluster-replicas 0 --cluster-yes >/dev/null
    for _ in $(seq 1 60); do cluster_ok && break; sleep 0.5; done
    cluster_ok || { log "ERROR: Redis Cluster on ${nodes[*]} did not reach cluster_state:ok"; exit 1; }
  fi
  log "Redis Cluster ready on 127.0.0.1:${cluster_ports[0]}-${cluster_ports[2]}"
}

zk_members=(1 2 3)
zk_client_port() { echo $((12180 + $1)); }

zk_mode() { # member -> leader, follower, or nothing when it does not serve
  local port reply
  port=$(zk_client_port "$1")
  reply=$(zk_four_letters "$port" srvr 2>/dev/null) || true
  sed -n 's/^Mode: //p' <<<"$reply"
}

zk_four_letters() { # port, command
  exec 3<>"/dev/tcp/127.0.0.1/$1" || return 1
  printf '%s' "$2" >&3
  timeout 2 cat <&3
  exec 3<&-
}

zk_ok() { # every member serves, one of them leads
  local n mode leaders=0
  for n in "${zk_members[@]}"; do
    mode=$(zk_mode "$n")
    case "$mode" in leader) leaders=$((leaders + 1)) ;; follower) ;; *) return 1 ;; esac
  done
  [ "$leaders" = 1 ]
}

zk_start_member() { # member
  local n=$1 dir=/var/lib/idstarter-zk-$1
  as_root install -d "$dir/data"
  echo "$n" | as_root tee "$dir/data/myid" >/dev/null
  # Short ticks so that tests may ask for sessions of a second or two; the admin server (port 8080) stays off.
  as_root tee "$dir/zoo.cfg" >/dev/null <<CFG
tickTime=500
initLimit=20
syncLimit=10
minSessionTimeout=1000
maxSessionTimeout=60000
dataDir=$dir/data
clientPort=$(zk_client_port "$n")
clientPortAddress=127.0.0.1
admin.enableServer=false
4lw.commands.whitelist=srvr,ruok,mntr
server.1=127.0.0.1:12281:12381
server.2=127.0.0.1:12282:12382
server.3=127.0.0.1:12283:12383
CFG
  as_root setsid -f sh -c 'echo $$ >"$0"; exec "$@"' "$dir/pid" java -Xmx128m -XX:+UseSerialGC -Dzookeeper.log.dir=/var/log \
    -cp "/usr/share/java/zookeeper.jar:/usr/share/java/slf4j-simple.jar" \
    org.apache.zookeeper.server.quorum.QuorumPeerMain "$dir/zoo.cfg" >"/var/log/idstarter-zk-$n.log" 2>&1 </dev/null
}

zk_stop_member() { # member
  local pidfile=/var/lib/idstarter-zk-$1/pid
  if [ -f "$pidfile" ]; then as_root kill "$(cat "$pidfile")" 2>/dev/null || true; as_root rm -f "$pidfile"; fi
  for _ in $(seq 1 20); do answers "$(zk_client_port "$1")" || return 0; sleep 0.25; done
}

zk_wait() { for _ in $(seq 1 60); do zk_ok && return 0; sleep 0.5; done; return 1; }

ensure_zookeeper() {
  if [ -n "${IDSTARTER_ZOOKEEPER_CONNECT:-}" ]; then log "ZooKeeper: using IDSTARTER_ZOOKEEPER_CONNECT"; return; fi
  [ -f /usr/share/java/zookeeper.jar ] || install_packages zookeeper
  [ -f /usr/share/java/slf4j-simple.jar ] || install_packages libslf4j-java
  if ! zk_ok; then
    local n
    for n in "${zk_members[@]}"; do
      [ -n "$(zk_mode "$n")" ] && continue
      zk_stop_member "$n"
      log "starting ZooKeeper member $n on 127.0.0.1:$(zk_client_port "$n")"
      zk_start_member "$n"
    done
    if ! zk_wait; then
      log "ZooKeeper ensemble did not form; wiping its members and forming it again"
      for n in "${zk_members[@]}"; do zk_stop_member "$n"; as_root rm -rf "/var/lib/idstarter-zk-$n"; done
      for n in "${zk_members[@]}"; do zk_start_member "$n"; done
      zk_wait || { log "ERROR: ZooKeeper ensemble on 127.0.0.1:12181-12183 did not form; see /var/log/idstarter-zk-*.log"; exit 1; }
    fi
  fi
  log "ZooKeeper ensemble ready on 127.0.0.1:12181-12183"
}

etcd_members=(1 2 3)
etcd_client_port() { echo $((12400 + $1)); }
etcd_endpoints() { echo "127.0.0.1:12401,127.0.0.1:12402,127.0.0.1:12403"; }

etcd_ok() { # every member answers healthy
  ETCDCTL_API=3 timeout 10 etcdctl --endpoints="$(etcd_endpoints)" --dial-timeout=2s --command-timeout=3s \
    endpoint health >/dev/null 2>&1
}

etcd_start_member() { # member, new|existing
  local n=$1 dir=/var/lib/idstarter-etcd-$1
  as_root install -d "$dir"
  as_root setsid -f sh -c 'echo $$ >"$0"; exec "$@"' "$dir/pid" etcd --name "idstarter-etcd-$n" --data-dir "$dir/data" \
    --listen-client-urls "http://127.0.0.1:$(etcd_client_port "$n")" \
    --advertise-client-urls "http://127.0.0.1:$(etcd_client_port "$n")" \
    --listen-peer-urls "http://127.0.0.1:$((12500 + n))" --initial-advertise-peer-urls "http://127.0.0.1:$((12500 + n))" \
    --initial-cluster "idstarter-etcd-1=http://127.0.0.1:12501,idstarter-etcd-2=http://127.0.0.1:12502,idstarter-etcd-3=http://127.0.0.1:12503" \
    --initial-cluster-token idstarter-etcd --initial-cluster-state "$2" \
    --heartbeat-interval 100 --election-timeout 1000 >"/var/log/idstarter-etcd-$n.log" 2>&1 </dev/null
}

etcd_stop_member() { # member
  local pidfile=/var/lib/idstarter-etcd-$1/pid
  if [ -f "$pidfile" ]; then as_root kill "$(cat "$pidfile")" 2>/dev/null || true; as_root rm -f "$pidfile"; fi
  for _ in $(seq 1 20); do answers "$(etcd_client_port "$1")" || return 0; sleep 0.25; done
}

etcd_wait() { for _ in $(seq 1 30); do etcd_ok && return 0; sleep 1; done; return 1; }

ensure_etcd() {
  if [ -n "${IDSTARTER_ETCD_ENDPOINTS:-}" ]; then log "etcd: using IDSTARTER_ETCD_ENDPOINTS"; return; fi
  command -v etcd >/dev/null || install_packages etcd-server
  command -v etcdctl >/dev/null || install_packages etcd-client
  if ! etcd_ok; then
    local n
    for n in "${etcd_members[@]}"; do
      answers "$(etcd_client_port "$n")" && continue
      etcd_stop_member "$n"
      log "starting etcd member $n on 127.0.0.1:$(etcd_client_port "$n")"
      if [ -d "/var/lib/idstarter-etcd-$n/data" ]; then etcd_start_member "$n" existing; else etcd_start_member "$n" new; fi
    done
    if ! etcd_wait; then
      log "etcd cluster did not form; wiping its members and forming it again"
      for n in "${etcd_members[@]}"; do etcd_stop_member "$n"; as_root rm -rf "/var/lib/idstarter-etcd-$n"; done
      for n in "${etcd_members[@]}"; do etcd_start_member "$n" new; done
      etcd_wait || { log "ERROR: etcd cluster on 127.0.0.1:12401-12403 did not form; see /var/log/idstarter-etcd-*.log"; exit 1; }
    fi
  fi
  log "etcd cluster ready on 127.0.0.1:12401-12403"
}

ensure_chromium() {
  # The sample server's monitor-page test drives a headless Chromium through /usr/bin/chromedriver.
  if [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; then
    log "Chromium ready: $(dpkg-query -W -f='${Version}' chromium 2>/dev/null || echo "version unknown")"
    return
  fi
  install_packages chromium chromium-driver
  [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] \
    || { log "ERROR: chromium / chromium-driver installed but /usr/bin/chromium or /usr/bin/chromedriver is missing"; exit 1; }
  log "Chromium ready: $(dpkg-query -W -f='${Version}' chromium 2>/dev/null || echo "version unknown")"
}

ensure_spin() {
  # LeaseProtocolModelIntegrationTests runs spin on verification/lease.pml and compiles its verifier with gcc.
  command -v spin >/dev/null || install_packages spin
  command -v gcc >/dev/null || install_packages gcc
  log "spin ready: $(spin -V 2>/dev/null | head -n 1)"
}

ensure_netns_tools() {
  # PartitionIntegrationTests: ip netns, veth and a bridge (iproute2); drops, one-way drops and loss (nftables).
  command -v ip >/dev/null || install_packages iproute2
  command -v nft >/dev/null || install_packages nftables
  log "network namespace tools ready: $(ip -V 2>/dev/null), $(nft --version 2>/dev/null)"
}

ensure_release_test_tools() {
  # scripts/release-test.sh asks the distribution's ID servers for IDs over HTTP.
  command -v curl >/dev/null || install_packages curl
}

ensure_postgres
ensure_mariadb
ensure_redis
ensure_redis_cluster
ensure_zookeeper
ensure_etcd
ensure_chromium
ensure_spin
ensure_netns_tools
ensure_release_test_tools
