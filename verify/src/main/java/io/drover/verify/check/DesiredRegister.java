package io.drover.verify.check;

import io.drover.verify.check.linear.Model;
import java.util.Objects;

/**
 * A desired LRP as a register with compare-and-set, the sequential model its API must be linearizable against. The
 * value is what clients write (instances, annotation); the modification tag {@code (epoch, index)} is what If-Match
 * compares. The index only grows within an epoch, and a deployment (the client's, or the deployer's automatic revert)
 * moves it on without changing the value: so the model lets the index jump ahead with the value unchanged, and never
 * back. A stale If-Match that succeeds, a write lost, a read of an older version or of a value nobody wrote, a delete
 * undone: none fits.
 */
public final class DesiredRegister implements Model<DesiredRegister.State, DesiredRegister.Op, DesiredRegister.Out> {

    /** A modification tag; {@code index} -1 and {@code epoch} null when not known (a create whose answer was lost). */
    public record Tag(String epoch, long index) {
    }

    /** The register: absent, or present with a tag and a value. */
    public record State(boolean exists, String epoch, long index, int instances, String annotation) {
        static final State ABSENT = new State(false, null, 0, 0, null);

        State with(Tag tag, int newInstances, String newAnnotation) {
            return new State(true, tag.epoch(), tag.index(), newInstances, newAnnotation);
        }

        boolean epochMatches(String other) {
            return epoch == null || epoch.equals(other);
        }
    }

    /** What a client asked. */
    public sealed interface Op {
    }

    public record Create(int instances, String annotation) implements Op {
    }

    /** {@code instances}/{@code annotation} null when the update does not set them; {@code ifMatch} null: none. */
    public record Update(Integer instances, String annotation, Tag ifMatch) implements Op {
    }

    public record Delete() implements Op {
    }

    public record Read() implements Op {
    }

    /** What it was answered. */
    public enum Kind {
        OK, NOT_FOUND, EXISTS, CONFLICT, UNKNOWN
    }

    /** {@code tag} from the ETag (or the body); {@code instances} and {@code annotation} for a read. */
    public record Out(Kind kind, Tag tag, int instances, String annotation) {
        public static final Out NOT_FOUND = new Out(Kind.NOT_FOUND, null, 0, null);
        public static final Out EXISTS = new Out(Kind.EXISTS, null, 0, null);
        public static final Out CONFLICT = new Out(Kind.CONFLICT, null, 0, null);
        public static final Out UNKNOWN = new Out(Kind.UNKNOWN, null, 0, null);

        public static Out ok(Tag tag) {
            return new Out(Kind.OK, tag, 0, null);
        }

        public static Out read(Tag tag, int instances, String annotation) {
            return new Out(Kind.OK, tag, instances, annotation);
        }
    }

    @Override
    public State init() {
        return State.ABSENT;
    }

    @Override
    public State step(State s, Op op, Out out) {
        if (op instanceof Create c) {
            return create(s, c, out);
        }
        if (op instanceof Update u) {
            return update(s, u, out);
        }
        return op instanceof Delete ? delete(s, out) : read(s, out);
    }

    private static State read(State s, Out out) {
        if (out.kind() == Kind.NOT_FOUND) {
            return s.exists() ? null : s;
        }
        boolean fits = s.exists() && s.epochMatches(out.tag().epoch()) && s.index() <= out.tag().index()
                && s.instances() == out.instances() && Objects.equals(s.annotation(), out.annotation());
        return fits ? s.with(out.tag(), out.instances(), out.annotation()) : null;
    }

    private static State create(State s, Create c, Out out) {
        return switch (out.kind()) {
            case OK -> s.exists() ? null : s.with(out.tag(), c.instances(), c.annotation());
            case EXISTS -> s.exists() ? s : null;
            case UNKNOWN -> s.exists() ? s : s.with(new Tag(null, -1), c.instances(), c.annotation());
            default -> null;
        };
    }

    private static State update(State s, Update u, Out out) {
        int instances = u.instances() == null ? s.instances() : u.instances();
        String annotation = u.annotation() == null ? s.annotation() : u.annotation();
        boolean changes = instances != s.instances() || !Objects.equals(annotation, s.annotation());
        Tag ifMatch = u.ifMatch();
        return switch (out.kind()) {
            case NOT_FOUND -> s.exists() ? null : s;
            // a stale tag, or (without one) the swap lost twice: nothing changed
            case CONFLICT -> s.exists() ? s : null;
            case OK -> {
                Tag now = out.tag();
                if (!s.exists() || !s.epochMatches(now.epoch())) {
                    yield null;
                }
                boolean fits = ifMatch != null
                        ? ifMatch.epoch().equals(now.epoch()) && s.index() <= ifMatch.index()
                                && now.index() == ifMatch.index() + (changes ? 1 : 0)
                        : s.index() < 0 || now.index() >= s.index() + (changes ? 1 : 0);
                yield fits ? s.with(now, instances, annotation) : null;
            }
            case UNKNOWN -> {
                if (!s.exists() || ifMatch != null && !(s.epochMatches(ifMatch.epoch()) && s.index() <= ifMatch.index())) {
                    yield s;
                }
                long base = ifMatch != null ? ifMatch.index() : s.index();
                long index = base < 0 ? -1 : base + (changes ? 1 : 0);
                yield new State(true, ifMatch != null ? ifMatch.epoch() : s.epoch(), index, instances, annotation);
            }
            default -> null;
        };
    }

    private static State delete(State s, Out out) {
        return switch (out.kind()) {
            case OK -> s.exists() ? State.ABSENT : null;
            case NOT_FOUND -> s.exists() ? null : s;
            case UNKNOWN -> State.ABSENT;
            default -> null;
        };
    }

    @Override
    public String describe(Op op, Out out) {
        return op + " -> " + out;
    }
}
