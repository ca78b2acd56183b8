-- id-starter tables for MySQL and MariaDB (InnoDB). Safe to run again: tables that exist are left as they are.

-- Segment allocation: Leaf's leaf_alloc table, column for column. A Leaf installation keeps its own table.
-- A key's next range is [max_id, max_id + step); max_id then moves to the end of the range.
CREATE TABLE IF NOT EXISTS leaf_alloc (
  biz_tag varchar(128) NOT NULL DEFAULT '' COMMENT 'business key',
  max_id bigint NOT NULL DEFAULT '1' COMMENT 'first ID of the next range',
  step int NOT NULL COMMENT 'configured range size, the floor of the dynamic step',
  description varchar(256) DEFAULT NULL COMMENT 'free text for operators',
  update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP COMMENT 'last change',
  PRIMARY KEY (biz_tag)
) ENGINE=InnoDB;

-- Snowflake worker-ID leases: one row per slot ever used. Times are milliseconds since the Unix epoch by the
-- database's clock. The binary collation keeps namespaces that differ only in case apart.
CREATE TABLE IF NOT EXISTS id_worker_lease (
  namespace varchar(128) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL COMMENT 'slot space shared by instances',
  worker_id int NOT NULL COMMENT 'the slot, in [0, maxWorkerId]',
  owner_token varchar(64) DEFAULT NULL COMMENT 'token of the holder, NULL when released',
  instance varchar(255) DEFAULT NULL COMMENT 'host and process that holds or last held the slot',
  expires_at bigint NOT NULL COMMENT 'lease end, epoch ms by the database clock',
  max_timestamp bigint NOT NULL DEFAULT -1 COMMENT 'greatest timestamp owners may have issued, -1 for none',
  updated_at bigint NOT NULL COMMENT 'last change, epoch ms by the database clock',
  PRIMARY KEY (namespace, worker_id)
) ENGINE=InnoDB;
