package io.drover.cli.output;

/** ANSI colours, only ever written when the output is a terminal; {@link #visibleLength} ignores them. */
public enum Ansi {
    GREEN("32"), YELLOW("33"), RED("31"), CYAN("36"), BLUE("34"), DIM("2"), BOLD("1");

    private final String code;

    Ansi(String code) {
        this.code = code;
    }

    public String paint(String text) {
        return "\u001b[" + code + "m" + text + "\u001b[0m";
    }

    /** The length of {@code text} as a terminal shows it (escape sequences take no room). */
    public static int visibleLength(String text) {
        return strip(text).codePointCount(0, strip(text).length());
    }

    public static String strip(String text) {
        return text.replaceAll("\u001b\\[[0-9;]*m", "");
    }
}
