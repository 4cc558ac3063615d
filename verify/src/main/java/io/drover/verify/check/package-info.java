/**
 * The checks: each a pure function from a recorded {@link io.drover.verify.history.History} to what it found wrong,
 * each with table tests of its own. They read the history and nothing else.
 */
package io.drover.verify.check;
