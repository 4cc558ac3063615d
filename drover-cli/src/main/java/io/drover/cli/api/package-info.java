/** The receptor's REST API as the CLI calls it: where it is, how to authenticate, and its errors. */
package io.drover.cli.api;
