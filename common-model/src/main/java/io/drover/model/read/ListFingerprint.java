package io.drover.model.read;

/**
 * What a list of rows looks like without reading it: how many rows it has and a digest of every row's key, epoch and
 * version. Every change of a row increments its version and a re-created row has a new epoch, so two equal
 * fingerprints mean no row of the list was created, changed or deleted in between (barring a 64-bit hash collision).
 *
 * @param rows the number of rows
 * @param digest the sum of a 64-bit hash per row, as a decimal number
 */
public record ListFingerprint(long rows, String digest) {
}
