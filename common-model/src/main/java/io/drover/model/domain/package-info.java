/** Domains: named groups of desired LRPs owned by one upstream, with a freshness TTL that guards destructive convergence. */
package io.drover.model.domain;
