/** Real infrastructure for tests: embedded PostgreSQL, the global embedded Kafka broker (or Testcontainers), clocks. */
package io.drover.test;
