-- id-starter tables for H2. Safe to run again: tables that exist are left as they are.

-- Segment allocation: Leaf's leaf_alloc table, column for column.
-- A key's next range is [max_id, max_id + step); max_id then moves to the end of the range.
CREATE TABLE IF NOT EXISTS leaf_alloc (
  biz_tag varchar(128) NOT NULL DEFAULT '',
  max_id bigint NOT NULL DEFAULT 1,
  step int NOT NULL,
  description varchar(256) DEFAULT NULL,
  update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (biz_tag)
);

-- Snowflake worker-ID leases: one row per slot ever used. expires_at and updated_at are milliseconds since the
-- Unix epoch by the database's clock; max_timestamp is the greatest timestamp owners may have issued (-1 for none);
-- owner_token is NULL when the slot was released; instance is the host and process that holds or last held it.
CREATE TABLE IF NOT EXISTS id_worker_lease (
  namespace varchar(128) NOT NULL,
  worker_id int NOT NULL,
  owner_token varchar(64) DEFAULT NULL,
  instance varchar(255) DEFAULT NULL,
  expires_at bigint NOT NULL,
  max_timestamp bigint NOT NULL DEFAULT -1,
  updated_at bigint NOT NULL,
  PRIMARY KEY (namespace, worker_id)
);
