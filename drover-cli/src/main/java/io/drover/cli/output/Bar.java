package io.drover.cli.output;

/** {@code [####------] 1536/4096 MB}: how much of a capacity is used. */
public final class Bar {

    private Bar() {
    }

    public static String of(long used, long total, int width, String unit) {
        int filled = total <= 0 ? 0 : (int) Math.min(width, Math.round((double) Math.max(0, used) * width / total));
        String figures = used + "/" + total + (unit.isEmpty() ? "" : " " + unit);
        return "[" + "#".repeat(filled) + "-".repeat(width - filled) + "] " + figures;
    }
}
