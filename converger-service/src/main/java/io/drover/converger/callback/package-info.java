/** Completion callbacks: the converger leader POSTs each completed task to its callback URL and resolves it on a 2xx. */
package io.drover.converger.callback;
