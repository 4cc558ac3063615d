/**
 * Per-instance usage figures (CPU, memory, disk, uptime): written by each rep once per sampling round, read by the
 * API.
 */
package io.drover.model.usage;
