package io.drover.receptor.ui;

/**
 * Each page marks the part that changes as its {@code live} fragment; the page's script asks for that fragment alone
 * ({@code ?fragment=live}) when the event stream says something changed, and swaps it in without a reload.
 */
final class Fragments {

    private Fragments() {
    }

    /** The whole page, or only its live part when {@code fragment} asks for it (any other value: the whole page). */
    static String view(String template, String fragment) {
        return "live".equals(fragment) ? template + " :: live" : template;
    }
}
