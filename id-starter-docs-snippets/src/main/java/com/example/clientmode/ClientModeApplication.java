package com.example.clientmode;

import io.idstarter.autoconfigure.EnableIdWorker;
import io.idstarter.autoconfigure.IdWorkerMode;

import org.springframework.boot.autoconfigure.SpringBootApplication;

// tag::application[]
@SpringBootApplication
// tag::annotation[]
@EnableIdWorker(mode = { IdWorkerMode.SEGMENT, IdWorkerMode.HTTP })   // segments and/or Snowflake via the servers
// end::annotation[]
class OrderService {

}
// end::application[]
