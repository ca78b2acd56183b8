package io.idstarter.autoconfigure.http;

import io.idstarter.segment.SegmentStore;
import io.idstarter.store.http.HttpSegmentStore;
import io.idstarter.store.http.IdServerClient;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.web.client.RestClient;

/**
 * Segments from the ID servers over HTTP; selected by {@code @EnableIdWorker(mode = SEGMENT)} with
 * {@code id-worker.segment.store=http}. The generator's double buffer is unchanged: IDs come from memory, and a
 * range is drawn from a server in the background when part of the current one is used.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "org.springframework.boot.restclient.autoconfigure.RestClientAutoConfiguration")
@ConditionalOnClass(RestClient.class)
@ConditionalOnProperty(name = "id-worker.segment.store", havingValue = "http")
@Import(IdServerClientConfiguration.class)
public final class HttpSegmentStoreConfiguration {

	@Bean
	@ConditionalOnMissingBean(SegmentStore.class)
	HttpSegmentStore httpSegmentStore(IdServerClient idServerClient) {
		return new HttpSegmentStore(idServerClient);
	}

}
