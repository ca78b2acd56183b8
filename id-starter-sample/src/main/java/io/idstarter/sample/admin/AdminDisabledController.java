package io.idstarter.sample.admin;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Answers every admin request with 404 while the admin API is off (the default), whatever the method, and says how to
 * turn it on.
 */
@RestController
@ConditionalOnBooleanProperty(name = "id-server.admin.enabled", havingValue = false, matchIfMissing = true)
class AdminDisabledController {

	@RequestMapping({ "/api/admin", "/api/admin/**" })
	ResponseEntity<ProblemDetail> adminDisabled() {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND,
				"The admin API is off; start the server with id-server.admin.enabled=true and "
						+ "id-server.admin.password set to use it");
		problem.setTitle("Admin API disabled");
		problem.setProperty("code", "admin-disabled");
		return ResponseEntity.status(HttpStatus.NOT_FOUND).body(problem);
	}

}
