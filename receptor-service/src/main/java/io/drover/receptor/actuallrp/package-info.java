/** Actual LRPs over HTTP: list, by process_guid, by index, and restart of one instance. */
package io.drover.receptor.actuallrp;
