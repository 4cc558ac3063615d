/**
 * The server-sent event stream of desired LRP, actual LRP, task and deployment changes, read from {@code lrp_events} in
 * the cluster's one stream order, so a client resumes from any receptor with {@code Last-Event-ID}.
 */
package io.drover.receptor.events;
