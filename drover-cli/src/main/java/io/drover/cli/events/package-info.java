/** {@code drover events}: the receptor's live event stream, filtered and summarised. */
package io.drover.cli.events;
