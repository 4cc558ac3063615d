/**
 * Requests through Spring Cloud Gateway: one catch-all route whose filter picks an instance by Host (404, 502, a
 * connect failure retried once elsewhere), the forwarded headers, and per-route metrics.
 */
package io.drover.router.proxy;
