/** What every command shares: the environment, the output, the receptor, the clock, and the usage error. */
package io.drover.cli.session;
