package io.drover.receptor.task;

import io.drover.model.task.TaskAdmission;
import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;
import org.springframework.http.HttpStatus;

/**
 * At most {@code max-unfinished-per-domain} unfinished tasks per domain (SPEC 13), counted cheaply: a count of the
 * domain's PENDING and RUNNING tasks on the index on (domain, task_guid), taken inside the submission's transaction
 * (before its insert) and remembered for {@code admission-count-ttl}, with this receptor's admissions since added.
 *
 * <ul>
 * <li>Far from the limit (more than {@code admission-headroom} below it) a submission costs no statement: the
 * remembered count is at most a second old.</li>
 * <li>Within the headroom every submission counts afresh. Each count sees every committed task, so only submissions
 * in flight at the same moment (each uncommitted to the others) can pass the limit together: it is never exceeded by
 * more than the number of concurrent submissions (the receptors' request threads).</li>
 * <li>A domain found full stays full for the count's lifetime: a client hammering a full domain costs a count a
 * second, not one per request.</li>
 * </ul>
 * Far from the limit, passing it would take the other receptors admitting more than the headroom (10,000 by default)
 * in one count's lifetime.
 */
final class DomainAdmission implements TaskAdmission {

    /** Domains remembered at most; more are forgotten all at once (and counted again). */
    private static final int MAX_DOMAINS = 10_000;

    private final ToLongFunction<String> unfinished;
    private final Clock clock;
    private final TaskApiProperties settings;
    private final Map<String, Count> counts = new ConcurrentHashMap<>();

    DomainAdmission(ToLongFunction<String> unfinished, Clock clock, TaskApiProperties settings) {
        this.unfinished = unfinished;
        this.clock = clock;
        this.settings = settings;
    }

    /** A domain's unfinished tasks as counted at {@code at}, plus those this receptor admitted since. */
    private record Count(long tasks, Instant at) {
    }

    @Override
    public void admit(String domain) {
        Instant now = clock.instant();
        Count known = counts.get(domain);
        boolean fresh = known != null && known.at().plus(settings.admissionCountTtl()).isAfter(now);
        if (fresh && known.tasks() >= settings.maxUnfinishedPerDomain()) {
            throw tooMany(domain);
        }
        Count count = fresh && known.tasks() < settings.maxUnfinishedPerDomain() - settings.admissionHeadroom() ? known
                : new Count(unfinished.applyAsLong(domain), now);
        if (count.tasks() >= settings.maxUnfinishedPerDomain()) {
            remember(domain, count);
            throw tooMany(domain);
        }
        remember(domain, new Count(count.tasks() + 1, count.at()));
    }

    private void remember(String domain, Count count) {
        if (counts.size() >= MAX_DOMAINS && !counts.containsKey(domain)) {
            counts.clear();
        }
        counts.put(domain, count);
    }

    private ApiException tooMany(String domain) {
        return new ApiException(HttpStatus.TOO_MANY_REQUESTS, ApiError.TOO_MANY_TASKS, "domain " + domain + " has "
                + settings.maxUnfinishedPerDomain() + " unfinished tasks, its limit; retry once some have completed",
                Map.of("Retry-After", String.valueOf(Math.max(1, settings.retryAfter().toSeconds()))));
    }
}
