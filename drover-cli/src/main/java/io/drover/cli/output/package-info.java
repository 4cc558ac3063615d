/** How the CLI prints: aligned tables and colour for people, one JSON object per line for scripts. */
package io.drover.cli.output;
