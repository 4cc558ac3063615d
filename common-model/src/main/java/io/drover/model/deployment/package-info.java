/**
 * Deployments (SPEC 14): rolling a desired LRP to a new definition version; the pure step function, the store and the
 * lifecycle.
 */
package io.drover.model.deployment;
