/** Domains over HTTP: mark a domain fresh (with a Cache-Control max-age TTL) and list the fresh ones. */
package io.drover.receptor.domains;
