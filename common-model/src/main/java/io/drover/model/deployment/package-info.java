/** Deployments (SPEC 14): rolling a desired LRP to a new definition version, its pure step function, store and lifecycle. */
package io.drover.model.deployment;
