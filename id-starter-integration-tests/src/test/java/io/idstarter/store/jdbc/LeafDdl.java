package io.idstarter.store.jdbc;

/**
 * The {@code leaf_alloc} table as Leaf's documentation creates it, for compatibility tests.
 */
final class LeafDdl {

	private LeafDdl() {
	}

	/**
	 * Leaf's MySQL DDL, column for column (the column comments are ours).
	 */
	static String mysql(String table) {
		return "CREATE TABLE `" + table + "` (\n"
				+ "  `biz_tag` varchar(128)  NOT NULL DEFAULT '' COMMENT 'business key',\n"
				+ "  `max_id` bigint(20) NOT NULL DEFAULT '1' COMMENT 'greatest ID allocated so far',\n"
				+ "  `step` int(11) NOT NULL COMMENT 'initial step, the floor of the dynamic step',\n"
				+ "  `description` varchar(256)  DEFAULT NULL COMMENT 'what the key is for',\n"
				+ "  `update_time` timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP "
				+ "COMMENT 'kept by the database',\n"
				+ "  PRIMARY KEY (`biz_tag`)\n"
				+ ") ENGINE=InnoDB";
	}

	/**
	 * The same table in standard SQL, for databases Leaf ships no DDL for.
	 */
	static String standard(String table) {
		return "CREATE TABLE " + table + " (\n"
				+ "  biz_tag varchar(128) NOT NULL DEFAULT '',\n"
				+ "  max_id bigint NOT NULL DEFAULT 1,\n"
				+ "  step int NOT NULL,\n"
				+ "  description varchar(256) DEFAULT NULL,\n"
				+ "  update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,\n"
				+ "  PRIMARY KEY (biz_tag)\n"
				+ ")";
	}

}
