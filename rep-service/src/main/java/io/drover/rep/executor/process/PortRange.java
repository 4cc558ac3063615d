package io.drover.rep.executor.process;

/** An inclusive range of host ports, written {@code 61000-61999}. */
record PortRange(int first, int last) {

    PortRange {
        if (first < 1024 || last > 65535 || first > last) {
            throw new IllegalArgumentException(
                    "host port range must be within 1024-65535 with first <= last: " + first + "-" + last);
        }
    }

    static PortRange parse(String text) {
        String[] bounds = text.trim().split("\\s*-\\s*");
        if (bounds.length != 2) {
            throw new IllegalArgumentException("host port range must look like 61000-61999: " + text);
        }
        try {
            return new PortRange(Integer.parseInt(bounds[0]), Integer.parseInt(bounds[1]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("host port range must look like 61000-61999: " + text, e);
        }
    }

    int size() {
        return last - first + 1;
    }
}
