/** Commands on LRPs: desire, scale, autoscale, list, status, restart, delete. */
package io.drover.cli.lrp;
