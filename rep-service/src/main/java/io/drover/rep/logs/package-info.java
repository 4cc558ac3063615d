/** The cell's internal log server: instance logs (tail, follow, stream filter) for the receptor, behind a shared secret. */
package io.drover.rep.logs;
