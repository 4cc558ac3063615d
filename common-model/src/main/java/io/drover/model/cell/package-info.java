/** Cells: their presence (heartbeat with a TTL), capacity, zone, rootfs and placement tags. */
package io.drover.model.cell;
