package io.idstarter.testsupport.contract;

/**
 * The former name of {@link AbstractLeaseStoreContractTests}.
 *
 * @deprecated the kit is named after the lease stores it checks; extend {@link AbstractLeaseStoreContractTests}
 */
@Deprecated(since = "0.1.0", forRemoval = true)
public abstract class AbstractSequenceManagerContractTests extends AbstractLeaseStoreContractTests {

}
