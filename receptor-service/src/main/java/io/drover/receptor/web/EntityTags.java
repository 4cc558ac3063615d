package io.drover.receptor.web;

/**
 * Conditional reads (RFC 9110 13.1.2): {@code If-None-Match} is compared with the current entity tag by weak
 * comparison ({@code W/"x"} matches {@code "x"}), a list of tags matches when any does, and {@code *} matches any
 * current representation. A malformed header simply does not match: the client gets the full answer.
 */
public final class EntityTags {

    private EntityTags() {
    }

    /** A weak entity tag: the content is the same, byte for byte only without content coding (gzip). */
    public static String weak(String opaque) {
        return "W/\"" + opaque + "\"";
    }

    /** Whether {@code ifNoneMatch} (the header's value, or null) names {@code current}. */
    public static boolean matches(String ifNoneMatch, String current) {
        if (ifNoneMatch == null || ifNoneMatch.isEmpty()) {
            return false;
        }
        String wanted = opaque(current);
        int at = 0;
        while (at < ifNoneMatch.length()) {
            int comma = ifNoneMatch.indexOf(',', at);
            String tag = ifNoneMatch.substring(at, comma < 0 ? ifNoneMatch.length() : comma).trim();
            if (tag.equals("*") || opaque(tag).equals(wanted)) {
                return true;
            }
            at = comma < 0 ? ifNoneMatch.length() : comma + 1;
        }
        return false;
    }

    /** The quoted part of a tag without its weakness marker. */
    private static String opaque(String tag) {
        return tag.startsWith("W/") ? tag.substring(2) : tag;
    }
}
