package io.drover.receptor.domains;

import io.drover.model.domain.Domains;
import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code /v1/domains}: an upstream marks its domain fresh after a full sync; only fresh domains let the converger stop
 * extra instances.
 */
@RestController
@Tag(name = "domains", description = "Freshness of upstream domains")
class DomainController {

    private static final Logger log = LoggerFactory.getLogger(DomainController.class);
    private static final int MAX_NAME = 256;

    private final Domains domains;

    DomainController(Domains domains) {
        this.domains = domains;
    }

    @PutMapping("/v1/domains/{domain}")
    @Operation(summary = "Mark a domain fresh", description = "Cache-Control: max-age=N keeps it fresh for N seconds; "
            + "without it the domain never expires. 400 InvalidDomain.")
    ResponseEntity<Void> upsert(@PathVariable String domain,
            @RequestHeader(name = "Cache-Control", required = false) String cacheControl) {
        if (domain.isBlank() || domain.length() > MAX_NAME || domain.chars().anyMatch(Character::isISOControl)) {
            throw ApiException.badRequest(ApiError.INVALID_DOMAIN,
                    "domain must be 1 to " + MAX_NAME + " characters without control characters");
        }
        Duration ttl = CacheControl.maxAge(cacheControl);
        domains.upsert(domain, ttl);
        log.info("upsert-domain domain={} ttl_s={}", domain, ttl == null ? "never" : ttl.toSeconds());
        return ResponseEntity.noContent().build();
    }

    @GetMapping("/v1/domains")
    @Operation(summary = "The fresh domains")
    List<String> fresh() {
        return domains.fresh();
    }
}
