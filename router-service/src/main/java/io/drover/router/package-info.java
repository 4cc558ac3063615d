/** The router (SPEC 16): one stable address per LRP, routed by Host to its running instances. */
package io.drover.router;
