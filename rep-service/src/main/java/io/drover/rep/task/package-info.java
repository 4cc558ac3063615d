/** A cell's tasks: starting what auctions placed on it, running each once, reporting how it ended, and cancels. */
package io.drover.rep.task;
