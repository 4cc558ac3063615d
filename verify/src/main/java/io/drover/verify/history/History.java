package io.drover.verify.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** A recorded run, in the order its entries were written; the checks read it and nothing else. */
public record History(List<Entry> entries) {

    public History {
        entries = List.copyOf(entries);
    }

    public static History of(Entry... entries) {
        return new History(List.of(entries));
    }

    public <T extends Entry> Stream<T> all(Class<T> type) {
        return entries.stream().filter(type::isInstance).map(type::cast);
    }

    public Optional<Entry.Meta> meta() {
        return all(Entry.Meta.class).findFirst();
    }

    /** The calls of these kinds, by invoke time. */
    public List<Entry.Call> calls(String... kinds) {
        List<String> wanted = List.of(kinds);
        List<Entry.Call> calls = new ArrayList<>(all(Entry.Call.class).filter(c -> wanted.contains(c.kind())).toList());
        calls.sort(Comparator.comparingLong(Entry.Call::invoke));
        return calls;
    }

    public List<Entry.Fault> faults() {
        return all(Entry.Fault.class).toList();
    }

    /** When the last fault was healed (0 without faults). */
    public long lastFaultHealed() {
        return all(Entry.Fault.class).mapToLong(Entry.Fault::end).max().orElse(0);
    }

    /** When the phase began, if the run reached it. */
    public Optional<Long> phase(String name) {
        return all(Entry.Phase.class).filter(p -> p.name().equals(name)).map(Entry.Phase::at).findFirst();
    }

    /** The timings of the run, or the local cluster's verify defaults when the history has no meta line. */
    public Entry.Timings timings() {
        return meta().map(Entry.Meta::timings).orElse(new Entry.Timings(10, 3, 2, 90, 1));
    }
}
