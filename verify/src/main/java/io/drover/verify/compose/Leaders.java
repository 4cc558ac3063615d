package io.drover.verify.compose;

import java.util.Map;
import java.util.Optional;

/**
 * Which container runs a service's leader (pure): the lock's row in {@code leader_locks} names a holder
 * ({@code converger-<uuid>}), and the one container whose log says {@code leader-elected ... holder=<that>} is it. A
 * lock past its expiry has no holder: there is no leader to freeze or cut off then.
 */
final class Leaders {

    private Leaders() {
    }

    /**
     * The holder of {@code lock} in {@code rows}, lines of {@code name|holder} of the unexpired locks (psql's unaligned
     * output).
     */
    static Optional<String> holder(String rows, String lock) {
        return rows.lines().map(String::strip).map(l -> l.split("\\|", 2)).filter(f -> f.length == 2)
                .filter(f -> f[0].equals(lock)).map(f -> f[1]).filter(h -> !h.isBlank()).findFirst();
    }

    /** The service among {@code logs} (service -> its log) whose log names {@code holder}; none when 0 or 2 do. */
    static Optional<String> among(String holder, Map<String, String> logs) {
        String wanted = "holder=" + holder;
        var naming = logs.entrySet().stream().filter(e -> e.getValue().contains(wanted)).map(Map.Entry::getKey)
                .toList();
        return naming.size() == 1 ? Optional.of(naming.get(0)) : Optional.empty();
    }
}
