package io.drover.converger.pass;

import io.drover.converger.plan.Rule;

/** What executing one plan came to: per rule, the actions applied and those skipped (conflict, illegal, gone). */
final class Execution {

    private final int[] applied = new int[Rule.values().length];
    private final int[] skipped = new int[Rule.values().length];

    void applied(Rule rule, int count) {
        applied[rule.ordinal()] += count;
    }

    void skipped(Rule rule, int count) {
        skipped[rule.ordinal()] += count;
    }

    int applied(Rule rule) {
        return applied[rule.ordinal()];
    }

    int skipped(Rule rule) {
        return skipped[rule.ordinal()];
    }

    int totalApplied() {
        int total = 0;
        for (int count : applied) {
            total += count;
        }
        return total;
    }

    int totalSkipped() {
        int total = 0;
        for (int count : skipped) {
            total += count;
        }
        return total;
    }
}
