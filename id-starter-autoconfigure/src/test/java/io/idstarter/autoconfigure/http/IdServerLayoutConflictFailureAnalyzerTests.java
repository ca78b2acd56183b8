package io.idstarter.autoconfigure.http;

import java.io.IOException;
import java.util.Properties;

import io.idstarter.store.http.IdServerLayoutConflictException;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;

import static org.assertj.core.api.Assertions.assertThat;

class IdServerLayoutConflictFailureAnalyzerTests {

	@Test
	void aBorrowRefusedForItsLayoutNamesBothLayoutsTheNamespaceAndTheSettings() {
		IdServerLayoutConflictException refusal = new IdServerLayoutConflictException("orders", "mine",
				"ID server refused to lease a worker ID of namespace 'orders': Namespace 'orders' records the "
						+ "layout 'recorded', and this client's is 'mine'");
		Throwable failure = new BeanCreationException("idWorker", refusal);
		FailureAnalysis analysis = new IdServerLayoutConflictFailureAnalyzer().analyze(failure);
		assertThat(analysis).isNotNull();
		assertThat(analysis.getDescription()).contains("'recorded'", "'mine'", "namespace 'orders'");
		assertThat(analysis.getAction()).contains("namespace 'orders'", "id-worker.snowflake.preset",
				"id-worker.lease.namespace", "id-server.clients");
	}

	@Test
	void isRegistered() throws IOException {
		Properties factories = PropertiesLoaderUtils.loadProperties(new ClassPathResource("META-INF/spring.factories"));
		assertThat(factories.getProperty(FailureAnalyzer.class.getName()).split(","))
			.contains(IdServerLayoutConflictFailureAnalyzer.class.getName());
	}

}
