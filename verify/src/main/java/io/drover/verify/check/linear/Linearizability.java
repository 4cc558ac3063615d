package io.drover.verify.check.linear;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The Wing-Gong-Lowe search for a linearization of a concurrent history (Wing &amp; Gong 1993, with Lowe's
 * memoisation of (linearized set, state) from "Testing for linearizability", 2017), the algorithm of Porcupine's
 * {@code checkSingle} and of Knossos' {@code wgl}. Calls and returns are one list in time order (a call before a return
 * at the same instant: operations that touch are concurrent). The search walks the list: at a call it tries to
 * linearize that operation now (the model must accept it, and the configuration must be new); at a return whose
 * operation is not yet linearized it backtracks. Every operation linearized means the history is linearizable.
 */
public final class Linearizability {

    private Linearizability() {
    }

    /** The verdict, and the longest sequence of operations (indices into the history) the search linearized. */
    public record Result(Verdict verdict, List<Integer> longest, int stuckAt) {

        public boolean linearizable() {
            return verdict == Verdict.LINEARIZABLE;
        }
    }

    public enum Verdict {
        LINEARIZABLE, NOT_LINEARIZABLE, UNKNOWN
    }

    public static <S, I, O> Result check(Model<S, I, O> model, List<Operation<I, O>> history) {
        return check(model, history, Duration.ofDays(1));
    }

    /** As {@link #check(Model, List)}, giving up with {@link Verdict#UNKNOWN} after {@code budget}. */
    public static <S, I, O> Result check(Model<S, I, O> model, List<Operation<I, O>> history, Duration budget) {
        long deadline = System.nanoTime() + budget.toNanos();
        Node head = entries(history);
        BitSet linearized = new BitSet(history.size());
        Set<Config<S>> seen = new HashSet<>();
        Deque<Frame<S>> calls = new ArrayDeque<>();
        List<Integer> longest = List.of();
        int stuckAt = -1;
        S state = model.init();
        Node entry = head.next;
        long steps = 0;
        while (head.next != null) {
            if ((++steps & 0x3ff) == 0 && System.nanoTime() > deadline) {
                return new Result(Verdict.UNKNOWN, longest, stuckAt);
            }
            if (entry.isCall()) {
                Operation<I, O> op = history.get(entry.id);
                S next = model.step(state, op.input(), op.output());
                if (next != null) {
                    BitSet with = (BitSet) linearized.clone();
                    with.set(entry.id);
                    if (seen.add(new Config<>(with, next))) {
                        calls.push(new Frame<>(entry, state));
                        state = next;
                        linearized.set(entry.id);
                        entry.lift();
                        if (calls.size() > longest.size()) {
                            longest = ids(calls);
                        }
                        entry = head.next;
                        continue;
                    }
                }
                entry = entry.next;
            } else {
                // the return of an operation no linearization so far could place: undo the last choice
                if (calls.isEmpty()) {
                    return new Result(Verdict.NOT_LINEARIZABLE, longest, stuckAt < 0 ? entry.id : stuckAt);
                }
                if (calls.size() == longest.size()) {
                    stuckAt = entry.id;
                }
                Frame<S> top = calls.pop();
                entry = top.entry;
                state = top.state;
                linearized.clear(entry.id);
                entry.unlift();
                entry = entry.next;
            }
        }
        return new Result(Verdict.LINEARIZABLE, longest, -1);
    }

    private static <S> List<Integer> ids(Deque<Frame<S>> calls) {
        List<Integer> ids = new ArrayList<>(calls.size());
        calls.descendingIterator().forEachRemaining(f -> ids.add(f.entry.id));
        return ids;
    }

    /** The history as one doubly linked list of calls and returns in time order, behind a sentinel head. */
    private static <I, O> Node entries(List<Operation<I, O>> history) {
        List<Node> nodes = new ArrayList<>(history.size() * 2);
        for (int i = 0; i < history.size(); i++) {
            Operation<I, O> op = history.get(i);
            Node ret = new Node(i, op.ret(), null);
            nodes.add(new Node(i, op.call(), ret));
            nodes.add(ret);
        }
        nodes.sort(Comparator.comparingLong((Node n) -> n.time).thenComparing(n -> n.isCall() ? 0 : 1)
                .thenComparingInt(n -> n.id));
        Node head = new Node(-1, Long.MIN_VALUE, null);
        Node last = head;
        for (Node n : nodes) {
            last.next = n;
            n.prev = last;
            last = n;
        }
        return head;
    }

    private record Frame<S>(Node entry, S state) {
    }

    private record Config<S>(BitSet linearized, S state) {
    }

    private static final class Node {
        final int id;
        final long time;
        /** For a call: its return. Null for a return. */
        final Node match;
        Node prev;
        Node next;

        Node(int id, long time, Node match) {
            this.id = id;
            this.time = time;
            this.match = match;
        }

        boolean isCall() {
            return match != null;
        }

        /** Takes this call and its return out of the list. */
        void lift() {
            prev.next = next;
            next.prev = prev;
            match.prev.next = match.next;
            if (match.next != null) {
                match.next.prev = match.prev;
            }
        }

        /** Puts them back, in the reverse order. */
        void unlift() {
            match.prev.next = match;
            if (match.next != null) {
                match.next.prev = match;
            }
            prev.next = this;
            next.prev = this;
        }
    }
}
