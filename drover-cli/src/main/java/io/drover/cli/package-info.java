/** The {@code drover} command: its subcommands, the {@code -o} option, and what each failure exits with. */
package io.drover.cli;
