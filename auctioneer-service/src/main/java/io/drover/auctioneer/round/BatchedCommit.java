package io.drover.auctioneer.round;

import io.drover.model.lrp.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A round's decisions committed in transactions of a few thousand, for instances and tasks alike: counts those that
 * succeeded (changed or already so), hands each one the lifecycle changed to {@code changed} and each refused one to
 * {@code skipped}.
 */
final class BatchedCommit {

    private BatchedCommit() {
    }

    static <K> int commit(Map<K, String> decided, int batchSize, Function<Map<K, String>, Map<K, Outcome>> apply,
            Consumer<K> changed, BiConsumer<K, Outcome> skipped) {
        int succeeded = 0;
        List<Map.Entry<K, String>> entries = new ArrayList<>(decided.entrySet());
        for (int from = 0; from < entries.size(); from += batchSize) {
            Map<K, String> batch = new LinkedHashMap<>();
            entries.subList(from, Math.min(entries.size(), from + batchSize))
                    .forEach(e -> batch.put(e.getKey(), e.getValue()));
            for (var outcome : apply.apply(batch).entrySet()) {
                if (outcome.getValue().kind() == Outcome.Kind.CHANGED) {
                    changed.accept(outcome.getKey());
                }
                if (outcome.getValue().succeeded()) {
                    succeeded++;
                } else {
                    skipped.accept(outcome.getKey(), outcome.getValue());
                }
            }
        }
        return succeeded;
    }
}
