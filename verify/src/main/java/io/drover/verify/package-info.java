/** {@code ./drover-verify}: runs a seeded random workload under faults against the local cluster and checks it. */
package io.drover.verify;
