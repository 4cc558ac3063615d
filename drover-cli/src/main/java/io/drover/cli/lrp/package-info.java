/** Commands on LRPs: desire, scale, list, status, restart, delete. */
package io.drover.cli.lrp;
