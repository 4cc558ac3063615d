package io.drover.verify.check.linear;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.verify.check.linear.Linearizability.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The search against histories whose verdict is known: Porcupine's published register examples (from its
 * {@code TestRegisterModel} and {@code TestZeroDuration}, themselves taken from MIT 6.824's 2017 quiz 2), a
 * compare-and-set register in the shape of Porcupine's etcd model with unknown outcomes, and random histories checked
 * against a brute-force search over every order.
 */
class LinearizabilityTest {

    /** Porcupine's {@code registerInput}: a put of {@code value}, or a get. */
    record Reg(boolean get, int value) {
        static Reg put(int value) {
            return new Reg(false, value);
        }

        static Reg read() {
            return new Reg(true, 0);
        }
    }

    /** Porcupine's {@code registerModel}: starts at 0; a put always succeeds; a get must return the state. */
    static final Model<Integer, Reg, Integer> REGISTER = new Model<>() {
        @Override
        public Integer init() {
            return 0;
        }

        @Override
        public Integer step(Integer state, Reg input, Integer output) {
            if (!input.get()) {
                return input.value();
            }
            return Objects.equals(output, state) ? state : null;
        }
    };

    private static Operation<Reg, Integer> op(int client, Reg input, long call, int output, long ret) {
        return new Operation<>("c" + client, input, output, call, ret);
    }

    @Test
    void porcupinesFirstRegisterExampleIsLinearizable() {
        // {0, put(100), 0, 0, 100}, {1, get, 25, 100, 75}, {2, get, 30, 0, 60}
        var history = List.of(op(0, Reg.put(100), 0, 0, 100), op(1, Reg.read(), 25, 100, 75),
                op(2, Reg.read(), 30, 0, 60));
        assertThat(Linearizability.check(REGISTER, history).verdict()).isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void porcupinesFirstRegisterExampleAsEventsIsLinearizable() {
        // call 0, call 1, call 2, return 2 (0), return 1 (100), return 0: each event one tick apart
        var history = List.of(op(0, Reg.put(100), 0, 0, 5), op(1, Reg.read(), 1, 100, 4), op(2, Reg.read(), 2, 0, 3));
        assertThat(Linearizability.check(REGISTER, history).verdict()).isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void porcupinesSecondRegisterExampleIsNotLinearizable() {
        // {0, put(200), 0, 0, 100}, {1, get, 10, 200, 30}, {2, get, 40, 0, 90}: 200 was read before 0 was
        var history = List.of(op(0, Reg.put(200), 0, 0, 100), op(1, Reg.read(), 10, 200, 30),
                op(2, Reg.read(), 40, 0, 90));
        Linearizability.Result result = Linearizability.check(REGISTER, history);
        assertThat(result.verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
        assertThat(result.longest()).containsExactly(0, 1);
    }

    @Test
    void porcupinesSecondRegisterExampleAsEventsIsNotLinearizable() {
        // call 0, call 1, return 1 (200), call 2, return 2 (0), return 0
        var history = List.of(op(0, Reg.put(200), 0, 0, 5), op(1, Reg.read(), 1, 200, 2), op(2, Reg.read(), 3, 0, 4));
        assertThat(Linearizability.check(REGISTER, history).verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void porcupinesZeroDurationExamples() {
        // operations that start and end at the same instant touch, so are concurrent, with whatever returns then
        var linearizable = List.of(op(0, Reg.put(100), 0, 0, 100), op(1, Reg.read(), 25, 100, 75),
                op(2, Reg.read(), 30, 0, 30), op(3, Reg.read(), 30, 0, 30));
        assertThat(Linearizability.check(REGISTER, linearizable).verdict()).isEqualTo(Verdict.LINEARIZABLE);
        var not = List.of(op(0, Reg.put(200), 0, 0, 100), op(1, Reg.read(), 10, 200, 10),
                op(2, Reg.read(), 10, 200, 10), op(3, Reg.read(), 40, 0, 90));
        assertThat(Linearizability.check(REGISTER, not).verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void aReadOfAValueNobodyWroteIsNotLinearizable() {
        var history = List.of(op(0, Reg.put(1), 0, 0, 10), op(1, Reg.read(), 20, 2, 30));
        assertThat(Linearizability.check(REGISTER, history).verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void twoReadersMayNotSeeTwoWritesInOppositeOrders() {
        // puts of 1 and 2 overlap; reader A sees 1 then 2, reader B sees 2 then 1: no single order explains both
        var history = List.of(op(0, Reg.put(1), 0, 0, 100), op(1, Reg.put(2), 0, 0, 100),
                op(2, Reg.read(), 10, 1, 20), op(2, Reg.read(), 30, 2, 40),
                op(3, Reg.read(), 10, 2, 20), op(3, Reg.read(), 30, 1, 40));
        assertThat(Linearizability.check(REGISTER, history).verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    /** Porcupine's etcd model: read, write, compare-and-set, with outputs that may be unknown (a timeout). */
    record Etcd(int op, int from, int to) {
        static Etcd read() {
            return new Etcd(0, 0, 0);
        }

        static Etcd write(int value) {
            return new Etcd(1, value, 0);
        }

        static Etcd cas(int from, int to) {
            return new Etcd(2, from, to);
        }
    }

    record EtcdOut(boolean ok, boolean exists, int value, boolean unknown) {
        static final EtcdOut UNKNOWN = new EtcdOut(false, false, 0, true);
        static final EtcdOut OK = new EtcdOut(true, false, 0, false);
        static final EtcdOut FAIL = new EtcdOut(false, false, 0, false);
        static final EtcdOut NIL = new EtcdOut(false, false, 0, false);

        static EtcdOut value(int v) {
            return new EtcdOut(false, true, v, false);
        }
    }

    static final int NIL = -1_000_000;
    static final Model<Integer, Etcd, EtcdOut> ETCD = new Model<>() {
        @Override
        public Integer init() {
            return NIL;
        }

        @Override
        public Integer step(Integer state, Etcd in, EtcdOut out) {
            return switch (in.op()) {
                case 0 -> out.unknown() || !out.exists() && state == NIL || out.exists() && state == out.value()
                        ? state : null;
                case 1 -> in.from();
                default -> {
                    boolean matches = in.from() == state;
                    boolean consistent = out.unknown() || matches == out.ok();
                    yield consistent ? (matches ? in.to() : state) : null;
                }
            };
        }
    };

    private static Operation<Etcd, EtcdOut> e(int client, Etcd in, long call, EtcdOut out, long ret) {
        return new Operation<>("c" + client, in, out, call, ret);
    }

    @Test
    void aCompareAndSetThatSucceededOnAValueAlreadyReplacedIsNotLinearizable() {
        var history = List.of(e(0, Etcd.write(1), 0, EtcdOut.OK, 10), e(1, Etcd.cas(1, 2), 20, EtcdOut.OK, 30),
                e(2, Etcd.cas(1, 3), 40, EtcdOut.OK, 50));
        assertThat(Linearizability.check(ETCD, history).verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void concurrentCompareAndSetsOfWhichOneWinsAreLinearizable() {
        var history = List.of(e(0, Etcd.write(1), 0, EtcdOut.OK, 10), e(1, Etcd.cas(1, 2), 20, EtcdOut.OK, 60),
                e(2, Etcd.cas(1, 3), 25, EtcdOut.FAIL, 50), e(3, Etcd.read(), 70, EtcdOut.value(2), 80));
        assertThat(Linearizability.check(ETCD, history).verdict()).isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void aWriteWhoseAnswerWasLostMayHaveHappenedLongAfter() {
        // the write of 5 timed out: reading 1, then 5, then 5 is explained by it taking effect between the reads
        var history = List.of(e(0, Etcd.write(1), 0, EtcdOut.OK, 10),
                e(1, Etcd.write(5), 20, EtcdOut.UNKNOWN, Operation.NEVER), e(2, Etcd.read(), 30, EtcdOut.value(1), 40),
                e(2, Etcd.read(), 50, EtcdOut.value(5), 60), e(3, Etcd.read(), 70, EtcdOut.value(5), 80));
        assertThat(Linearizability.check(ETCD, history).verdict()).isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void aWriteWhoseAnswerWasLostMayNotHaveHappenedAtAll() {
        var history = List.of(e(0, Etcd.write(1), 0, EtcdOut.OK, 10),
                e(1, Etcd.write(5), 20, EtcdOut.UNKNOWN, Operation.NEVER), e(2, Etcd.read(), 30, EtcdOut.value(1), 40));
        assertThat(Linearizability.check(ETCD, history).verdict()).isEqualTo(Verdict.LINEARIZABLE);
    }

    @Test
    void aWriteWhoseAnswerWasLostCannotHaveHappenedBeforeItWasCalled() {
        var history = List.of(e(0, Etcd.write(1), 0, EtcdOut.OK, 10), e(2, Etcd.read(), 20, EtcdOut.value(5), 30),
                e(1, Etcd.write(5), 40, EtcdOut.UNKNOWN, Operation.NEVER));
        assertThat(Linearizability.check(ETCD, history).verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void aReadOfNothingAfterAWriteCompletedIsNotLinearizable() {
        var history = List.of(e(0, Etcd.write(1), 0, EtcdOut.OK, 10), e(1, Etcd.read(), 20, EtcdOut.NIL, 30));
        assertThat(Linearizability.check(ETCD, history).verdict()).isEqualTo(Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void aLongHistoryOfManyClientsIsCheckedInAFewSeconds() {
        Random random = new Random(7);
        List<Operation<Etcd, EtcdOut>> history = RandomHistories.etcd(random, 8, 3_000, 300);
        long started = System.nanoTime();
        assertThat(Linearizability.check(ETCD, history, Duration.ofSeconds(30)).verdict())
                .isEqualTo(Verdict.LINEARIZABLE);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void agreesWithABruteForceSearchOnThousandsOfSmallRandomHistories() {
        Random random = new Random(11);
        int linearizable = 0;
        int not = 0;
        for (int i = 0; i < 4_000; i++) {
            List<Operation<Etcd, EtcdOut>> history = RandomHistories.etcd(random, 3, 2 + random.nextInt(5));
            if (random.nextBoolean()) {
                history = RandomHistories.corrupt(random, history);
            }
            boolean expected = BruteForce.linearizable(ETCD, history);
            assertThat(Linearizability.check(ETCD, history).linearizable()).as("history %s", history)
                    .isEqualTo(expected);
            if (expected) {
                linearizable++;
            } else {
                not++;
            }
        }
        assertThat(linearizable).isGreaterThan(500);
        assertThat(not).isGreaterThan(500);
    }

    /** Every order of the operations that respects real time, tried one by one. */
    static final class BruteForce {

        static <S, I, O> boolean linearizable(Model<S, I, O> model, List<Operation<I, O>> history) {
            return search(model, history, model.init(), new boolean[history.size()], 0);
        }

        private static <S, I, O> boolean search(Model<S, I, O> model, List<Operation<I, O>> history, S state,
                boolean[] done, int count) {
            if (count == history.size()) {
                return true;
            }
            for (int i = 0; i < history.size(); i++) {
                if (done[i] || !minimal(history, done, i)) {
                    continue;
                }
                Operation<I, O> op = history.get(i);
                S next = model.step(state, op.input(), op.output());
                if (next != null) {
                    done[i] = true;
                    if (search(model, history, next, done, count + 1)) {
                        return true;
                    }
                    done[i] = false;
                }
            }
            return false;
        }

        /** No operation left undone returned before this one was called. */
        private static <I, O> boolean minimal(List<Operation<I, O>> history, boolean[] done, int i) {
            for (int j = 0; j < history.size(); j++) {
                if (!done[j] && j != i && history.get(j).ret() < history.get(i).call()) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Histories of a real register run by several clients, with random overlaps and lost answers. */
    static final class RandomHistories {

        static List<Operation<Etcd, EtcdOut>> etcd(Random random, int clients, int operations) {
            return etcd(random, clients, operations, 25);
        }

        /** One write in about {@code unknownEvery} loses its answer. */
        static List<Operation<Etcd, EtcdOut>> etcd(Random random, int clients, int operations, int unknownEvery) {
            List<Operation<Etcd, EtcdOut>> history = new ArrayList<>();
            long[] free = new long[clients];
            int state = NIL;
            long now = 0;
            long lastAt = 0;
            for (int i = 0; i < operations; i++) {
                now += random.nextInt(3);
                int client = random.nextInt(clients);
                long call = Math.max(free[client], now - random.nextInt(20));
                long at = Math.max(Math.max(call, now), lastAt);
                lastAt = at;
                Etcd in = switch (random.nextInt(3)) {
                    case 0 -> Etcd.read();
                    case 1 -> Etcd.write(random.nextInt(4));
                    default -> Etcd.cas(random.nextInt(4), random.nextInt(4));
                };
                EtcdOut out;
                if (in.op() == 0) {
                    out = state == NIL ? EtcdOut.NIL : EtcdOut.value(state);
                } else if (in.op() == 1) {
                    state = in.from();
                    out = EtcdOut.OK;
                } else {
                    out = in.from() == state ? EtcdOut.OK : EtcdOut.FAIL;
                    state = in.from() == state ? in.to() : state;
                }
                long ret = at + random.nextInt(20);
                if (in.op() != 0 && random.nextInt(unknownEvery) == 0) {
                    out = EtcdOut.UNKNOWN;
                    ret = Operation.NEVER;
                    free[client] = Long.MAX_VALUE / 2;
                } else {
                    free[client] = free[client] == Long.MAX_VALUE / 2 ? free[client] : ret + 1;
                }
                history.add(new Operation<>("c" + client, in, out, call, ret));
                if (free[client] == Long.MAX_VALUE / 2) {
                    free[client] = 0; // a new client takes the place of one whose call never returned
                }
            }
            return history;
        }

        /** One read answers a value its register may never have held then. */
        static List<Operation<Etcd, EtcdOut>> corrupt(Random random, List<Operation<Etcd, EtcdOut>> history) {
            List<Operation<Etcd, EtcdOut>> copy = new ArrayList<>(history);
            int i = random.nextInt(copy.size());
            Operation<Etcd, EtcdOut> op = copy.get(i);
            EtcdOut out = op.input().op() == 2 ? (op.output().ok() ? EtcdOut.FAIL : EtcdOut.OK)
                    : EtcdOut.value(random.nextInt(4));
            copy.set(i, new Operation<>(op.client(), op.input().op() == 1 ? Etcd.read() : op.input(), out,
                    op.call(), op.ret() == Operation.NEVER ? op.call() + 5 : op.ret()));
            return copy;
        }
    }
}
