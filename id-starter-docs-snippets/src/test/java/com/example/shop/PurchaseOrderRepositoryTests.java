package com.example.shop;

import org.springframework.boot.data.jpa.test.autoconfigure.DataJpaTest;

// tag::data-jpa[]
@DataJpaTest(properties = { "spring.sql.init.schema-locations=classpath:io/idstarter/store/jdbc/schema-h2.sql",
		"spring.sql.init.data-locations=classpath:keys.sql" })
class PurchaseOrderRepositoryTests {
	// keys.sql: INSERT INTO leaf_alloc (biz_tag, max_id, step, description) VALUES ('order', 1000, 100, 'tests');
}
// end::data-jpa[]
