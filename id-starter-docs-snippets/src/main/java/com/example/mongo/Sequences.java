package com.example.mongo;

import io.idstarter.sequence.SequenceDefinition;
import io.idstarter.store.mongo.MongoSequenceService;

import org.springframework.data.mongodb.core.MongoTemplate;
import org.springframework.data.mongodb.core.mapping.Document;

class Sequences {

	void use(MongoTemplate mongoTemplate) {
		// tag::service[]
		MongoSequenceService sequences = new MongoSequenceService(mongoTemplate);
		sequences.create(SequenceDefinition.of("sys_user"));                  // 0, 1, 2, … (false if it exists)
		sequences.create(SequenceDefinition.of("sys_user3").withBatchSize(10));
		long id = sequences.next(SysUser.class);   // the sequence named after @Document(collection = "sys_user")
		long other = sequences.next("sys_user3");
		// end::service[]
	}

	@Document(collection = "sys_user")
	static class SysUser {

	}

}
