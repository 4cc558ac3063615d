/**
 * The compose cluster ({@code docker-compose.yml} with {@code docker-compose.verify.yml} on top) as the checker meets
 * it: started or attached to, reached through its published ports, broken through Docker (a container killed, paused,
 * stopped or cut off the network), and its settings read back from its containers.
 */
package io.drover.verify.compose;
