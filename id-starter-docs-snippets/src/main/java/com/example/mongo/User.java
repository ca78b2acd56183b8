package com.example.mongo;

import io.idstarter.data.mongo.SequenceId;

import org.springframework.data.annotation.Id;
import org.springframework.data.mongodb.core.mapping.Document;
import org.springframework.data.mongodb.repository.MongoRepository;

// tag::entity[]
@Document("sys_user")
class User {

	@Id
	@SequenceId
	Long id;

	String name;

	User(String name) {
		this.name = name;
	}

}

interface UserRepository extends MongoRepository<User, Long> {

}
// end::entity[]

class Users {

	void saveTwo(UserRepository userRepository) {
		// tag::save[]
		userRepository.save(new User("ann"));   // id 1
		userRepository.save(new User("bob"));   // id 2
		// end::save[]
	}

}
