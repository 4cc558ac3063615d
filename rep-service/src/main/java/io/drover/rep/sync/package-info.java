/**
 * The sync loop (SPEC 8.4): the pure plan that compares a cell's containers with its records and says what to repair,
 * and the reconciler that carries out those repairs and the ones a container event asks for.
 */
package io.drover.rep.sync;
