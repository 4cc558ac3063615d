/** Actual LRPs over HTTP: list, by process_guid, by index, restart of one instance, and each instance's usage. */
package io.drover.receptor.actuallrp;
