/**
 * The autoscaler's records (SPEC 17): what it last decided for each autoscaled LRP and the samples of its chart, kept
 * in PostgreSQL so that a new leader continues; the policy itself is part of the desired LRP.
 */
package io.drover.model.autoscale;
