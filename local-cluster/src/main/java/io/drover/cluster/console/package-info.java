/** What {@code ./drover-local} shows on its terminal: start-up progress, the banner, one line per cluster event. */
package io.drover.cluster.console;
