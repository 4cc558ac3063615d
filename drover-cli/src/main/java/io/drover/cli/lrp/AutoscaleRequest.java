package io.drover.cli.lrp;

import io.drover.cli.json.Json;
import io.drover.cli.json.ObjectNode;
import io.drover.cli.session.Durations;
import io.drover.cli.session.UsageException;

/**
 * The flags of {@code drover autoscale} as the body of {@code PUT /v1/desired_lrps/NAME} (SPEC 17): a policy, or
 * {@code {"autoscaling": null}} for {@code --off}. Pure. A delay is a duration ({@code 5m}, {@code 30s}) or seconds
 * ({@code 0}, {@code 300}); what the flags leave out is the API's default (min 1, up at once, down after 300 s).
 */
record AutoscaleRequest(boolean off, Integer min, Integer max, Integer cpu, Integer memory, String scaleUpDelay,
        String scaleDownDelay) {

    ObjectNode toJson() {
        ObjectNode body = Json.object();
        if (off) {
            if (min != null || max != null || cpu != null || memory != null || scaleUpDelay != null
                    || scaleDownDelay != null) {
                throw new UsageException("--off takes no other flag: it removes the policy (instances stay as they "
                        + "are)");
            }
            return body.set("autoscaling", Json.nullNode());
        }
        if (max == null) {
            throw new UsageException("how far may it grow? give --max N (and --off to stop autoscaling)");
        }
        if (cpu == null && memory == null) {
            throw new UsageException("scale on what? give --cpu PERCENT (of one core) and/or --memory PERCENT");
        }
        ObjectNode policy = body.putObject("autoscaling");
        if (min != null) {
            policy.put("min_instances", min);
        }
        policy.put("max_instances", max);
        if (cpu != null) {
            policy.put("target_cpu_percent", cpu);
        }
        if (memory != null) {
            policy.put("target_memory_percent", memory);
        }
        if (scaleUpDelay != null) {
            policy.put("scale_up_delay", seconds(scaleUpDelay, "--scale-up-delay"));
        }
        if (scaleDownDelay != null) {
            policy.put("scale_down_delay", seconds(scaleDownDelay, "--scale-down-delay"));
        }
        return body;
    }

    /** What the policy says, for the line the command prints. */
    String describe() {
        StringBuilder line = new StringBuilder((min == null ? 1 : min) + "-" + max + " instances at");
        if (cpu != null) {
            line.append(" cpu ").append(cpu).append('%');
        }
        if (memory != null) {
            line.append(cpu != null ? "," : "").append(" memory ").append(memory).append('%');
        }
        return line.toString();
    }

    private static long seconds(String text, String option) {
        return text.strip().matches("\\d+") ? Long.parseLong(text.strip())
                : Durations.parse(text, option).toSeconds();
    }
}
