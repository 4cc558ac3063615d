/** {@code drover routes}: the router's hostnames and the instances each reaches. */
package io.drover.cli.routes;
