/** {@code drover tasks} and {@code drover task submit|get|cancel|delete|logs}: run-once work (SPEC 13). */
package io.drover.cli.tasks;
