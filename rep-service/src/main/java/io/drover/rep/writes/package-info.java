/**
 * A cell's writes into the model: its calls into the lifecycle, logged and counted, and the group commit that carries
 * every cell's writes of this process in shared transactions.
 */
package io.drover.rep.writes;
