/** The benchmark: drives the local cluster with simulated cells through the public API and prints SPEC 11's table. */
package io.drover.bench;
