/** One convergence pass (snapshot, plan, execute, metrics) and the leader-only loop that decides when it runs. */
package io.drover.converger.pass;
