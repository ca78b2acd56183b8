package io.idstarter.autoconfigure.http;

import io.idstarter.lease.ISequenceManager;
import io.idstarter.store.http.HttpLeaseStore;
import io.idstarter.store.http.IdServerClient;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.client.RestClient;

/**
 * Worker-ID leases from the ID servers over HTTP; selected by {@code @EnableIdWorker(mode = HTTP)}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration")
@ConditionalOnClass(RestClient.class)
@Import(IdServerClientConfiguration.class)
public final class HttpLeaseStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(ISequenceManager.class)
	HttpLeaseStore httpLeaseStore(IdServerClient idServerClient) {
		return new HttpLeaseStore(idServerClient);
	}

}
