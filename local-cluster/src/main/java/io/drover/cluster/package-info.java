/** The local cluster: embedded PostgreSQL, an in-process Kafka broker, every service and three cells in one JVM. */
package io.drover.cluster;
