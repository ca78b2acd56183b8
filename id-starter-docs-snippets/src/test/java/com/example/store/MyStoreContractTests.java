package com.example.store;

import javax.sql.DataSource;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.segment.SegmentStore;
import io.idstarter.testsupport.contract.AbstractSegmentStoreContractTests;
import io.idstarter.testsupport.contract.AbstractLeaseStoreContractTests;

import org.springframework.jdbc.datasource.DriverManagerDataSource;

// tag::contract-kits[]
class MyLeaseStoreTests extends AbstractLeaseStoreContractTests {

	private final DataSource dataSource = new DriverManagerDataSource("jdbc:h2:mem:my-store");

	@Override
	protected ISequenceManager createManager() {
		return new MyLeaseStore(this.dataSource);
	}

}

class MySegmentStoreTests extends AbstractSegmentStoreContractTests {

	private final DataSource dataSource = new DriverManagerDataSource("jdbc:h2:mem:my-store");

	@Override
	protected SegmentStore createStore() {
		return new MySegmentStore(this.dataSource);   // also a SegmentKeyAdmin, or override createAdmin
	}

	@Override
	protected boolean givesBack() {
		return false;   // MySegmentStore keeps SegmentStore.giveBack's default: it never gives back
	}

	@Override
	protected boolean keepsKeysMarker() {
		return false;   // nor keysMarker's: every key refresh reads the whole list
	}

}
// end::contract-kits[]
