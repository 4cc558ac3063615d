/** The route table: hostname to the routable instances of the LRPs that name it, kept by version (pure). */
package io.drover.router.table;
