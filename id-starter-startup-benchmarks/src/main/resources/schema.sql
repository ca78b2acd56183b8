-- The application's own table, as an application that uses its database creates or migrates at start.
CREATE TABLE IF NOT EXISTS purchase_order (
  id bigint NOT NULL PRIMARY KEY,
  customer varchar(64) NOT NULL,
  created_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP
);
