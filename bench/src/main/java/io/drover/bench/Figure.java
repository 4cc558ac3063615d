package io.drover.bench;

/** One line of the results table. */
record Figure(String scenario, String figure, String target, boolean pass, String detail) {
}
