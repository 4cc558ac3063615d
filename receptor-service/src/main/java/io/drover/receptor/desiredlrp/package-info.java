/** Desired LRPs over HTTP: create, list, get, update (instances/routes/annotation) and delete, with strict validation. */
package io.drover.receptor.desiredlrp;
