/** The sync loop's decisions (SPEC 8.4): compare a cell's containers with its records and say what to repair. Pure. */
package io.drover.rep.sync;
