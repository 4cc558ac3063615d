/**
 * What the checker watches besides its own calls: the event stream, the callbacks it receives, the workload processes
 * on the machine and what they answer, and the quiescent cluster once faults stopped.
 */
package io.drover.verify.observe;
