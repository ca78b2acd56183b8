package com.example.store;

import javax.sql.DataSource;

import io.idstarter.lease.ISequenceManager;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class StoreConfiguration {

	// tag::bean[]
	@Bean
	ISequenceManager myLeaseStore(DataSource dataSource) {
		return new MyLeaseStore(dataSource);   // borrow, renew, release
	}
	// end::bean[]

}
