/** What a desired LRP's routes say to the router: Diego's {@code cf-router} shape, read and checked. */
package io.drover.model.route;
