/** {@code drover domains}: the fresh domains. */
package io.drover.cli.domains;
