/**
 * Linearizability checking by the Wing-Gong-Lowe search with memoisation (as Porcupine and Knossos implement it), over
 * a sequential model given as a step function; histories are partitioned by key before they are checked.
 */
package io.drover.verify.check.linear;
