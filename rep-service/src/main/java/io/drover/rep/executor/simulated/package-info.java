/** The simulated executor: in-memory containers on shared scheduler threads, for scale tests and many cells per JVM. */
package io.drover.rep.executor.simulated;
