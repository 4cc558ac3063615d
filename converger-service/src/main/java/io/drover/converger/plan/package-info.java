/** The pure decision of a convergence pass: a snapshot of desired and actual state in, a plan of repairs out. */
package io.drover.converger.plan;
