/** {@code drover logs}: instance logs through the receptor, one instance or all, tail and follow. */
package io.drover.cli.logs;
