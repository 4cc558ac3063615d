package io.drover.cli.output;

import java.util.ArrayList;
import java.util.List;

/** Columns aligned to their widest cell (colour codes take no width), two spaces apart, headers first. */
public final class Table {

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public Table(String... headers) {
        this.headers = List.of(headers);
    }

    public Table row(String... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("expected " + headers.size() + " cells, got " + cells.length);
        }
        rows.add(List.of(cells));
        return this;
    }

    public List<String> lines() {
        int[] widths = new int[headers.size()];
        List<List<String>> all = new ArrayList<>();
        all.add(headers);
        all.addAll(rows);
        for (List<String> row : all) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], Ansi.visibleLength(row.get(i)));
            }
        }
        List<String> lines = new ArrayList<>();
        for (List<String> row : all) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                line.append(cell);
                if (i < row.size() - 1) {
                    line.append(" ".repeat(widths[i] - Ansi.visibleLength(cell) + 2));
                }
            }
            lines.add(line.toString().stripTrailing());
        }
        return lines;
    }
}
