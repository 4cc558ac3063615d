package io.drover.model.jdbc;

/**
 * Text as PostgreSQL can store it. A {@code text} column refuses U+0000 (the whole statement fails: "invalid byte
 * sequence for encoding UTF8: 0x00"), and a lone surrogate has no UTF-8 form at all; both become U+FFFD, the
 * replacement character, and everything else is kept as it is. What a workload writes (a task's result, a crash or
 * failure reason made from its exit, its health checks or its downloads) passes through here where it enters the
 * model, so that no bytes a process chose can make a write fail.
 */
public final class StorableText {

    /** What replaces each character PostgreSQL cannot store. */
    public static final char REPLACEMENT = '\uFFFD';

    private StorableText() {
    }

    /** The text with NUL and lone surrogates replaced; null stays null, storable text is returned as it is. */
    public static String of(String text) {
        return text == null ? null : of(text, text.length());
    }

    /**
     * The same, and at most {@code maxLength} chars: cut before a surrogate pair the cap would split, so a cap never
     * makes a lone surrogate of its own.
     */
    public static String of(String text, int maxLength) {
        if (text == null) {
            return null;
        }
        int end = Math.min(text.length(), maxLength);
        if (end > 0 && end < text.length() && Character.isHighSurrogate(text.charAt(end - 1))
                && Character.isLowSurrogate(text.charAt(end))) {
            end--;
        }
        int first = firstUnstorable(text, end);
        if (first == end) {
            return end == text.length() ? text : text.substring(0, end);
        }
        StringBuilder cleaned = new StringBuilder(end).append(text, 0, first);
        for (int i = first; i < end; i++) {
            char c = text.charAt(i);
            if (isPair(text, i, end)) {
                cleaned.append(c).append(text.charAt(++i));
            } else {
                cleaned.append(c == '\u0000' || Character.isSurrogate(c) ? REPLACEMENT : c);
            }
        }
        return cleaned.toString();
    }

    /** The index of the first char before {@code end} that cannot be stored, or {@code end}. */
    private static int firstUnstorable(String text, int end) {
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (isPair(text, i, end)) {
                i++;
            } else if (c == '\u0000' || Character.isSurrogate(c)) {
                return i;
            }
        }
        return end;
    }

    private static boolean isPair(String text, int i, int end) {
        return Character.isHighSurrogate(text.charAt(i)) && i + 1 < end && Character.isLowSurrogate(text.charAt(i + 1));
    }
}
