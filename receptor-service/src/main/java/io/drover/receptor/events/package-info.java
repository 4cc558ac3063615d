/** The server-sent event stream of desired and actual LRP changes, fed from the lifecycle Kafka topic. */
package io.drover.receptor.events;
