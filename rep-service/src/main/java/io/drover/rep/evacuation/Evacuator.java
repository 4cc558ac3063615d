package io.drover.rep.evacuation;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Drains cells: each stops taking work, hands its instances over, stops the old ones, then leaves. */
public interface Evacuator {

    /** Starts draining one cell of this process, or all of them when {@code cellId} is null; empty if unknown. */
    Optional<Draining> evacuate(String cellId);

    /** The cells draining and the moment they are all done. */
    record Draining(List<String> cellIds, CompletableFuture<Void> done) {
    }
}
