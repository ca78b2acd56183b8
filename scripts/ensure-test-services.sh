#!/usr/bin/env bash
# Makes sure the servers the integration tests talk to answer on localhost, with the test user and database
# (user and password "idstarter", database "idstarter") that id-starter-test-support expects:
# PostgreSQL on 5432, MariaDB on 3306, Redis on 6379, a three-node Redis Cluster on 7001-7003. Installs them from
# Debian's packages when missing and starts them without systemd. Safe to run again; does nothing for a server that
# already answers and is set up. Servers named in IDSTARTER_POSTGRES_URL / IDSTARTER_MARIADB_URL / IDSTARTER_REDIS_URL /
# IDSTARTER_REDIS_CLUSTER_NODES are left alone.
# Also installs Debian's Chromium and ChromeDriver for the sample server's browser test (monitor page) when missing.
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
    as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
      --dir /var/lib/redis --logfile /var/log/redis/ci.log
    wait_for 6379 Redis
  fi
  log "Redis ready on 127.0.0.1:6379"
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

ensure_postgres
ensure_mariadb
ensure_redis
ensure_redis_cluster
ensure_chromium
