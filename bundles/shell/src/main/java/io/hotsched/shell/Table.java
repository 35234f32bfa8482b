package io.hotsched.shell;

import java.util.ArrayList;
import java.util.List;

/** Plain-text table with aligned columns, for shell output. */
final class Table {

    private final List<String[]> rows = new ArrayList<>();
    private final int columns;

    Table(String... headers) {
        this.columns = headers.length;
        rows.add(headers);
    }

    Table row(Object... cells) {
        String[] r = new String[columns];
        for (int i = 0; i < columns; i++) {
            Object c = i < cells.length ? cells[i] : "";
            r[i] = c == null ? "" : String.valueOf(c).replace('\n', ' ');
        }
        rows.add(r);
        return this;
    }

    @Override
    public String toString() {
        int[] width = new int[columns];
        for (String[] r : rows) {
            for (int i = 0; i < columns; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        StringBuilder b = new StringBuilder();
        for (String[] r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                line.append(r[i]);
                if (i < columns - 1) {
                    line.append(" ".repeat(width[i] - r[i].length() + 2));
                }
            }
            b.append(line.toString().stripTrailing()).append('\n');
        }
        return b.toString();
    }
}
