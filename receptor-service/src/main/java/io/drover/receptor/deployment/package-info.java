/**
 * {@code /v1/desired_lrps/{guid}/deployments}: start, inspect, pause, resume, promote and cancel rolling updates
 * (SPEC 14).
 */
package io.drover.receptor.deployment;
