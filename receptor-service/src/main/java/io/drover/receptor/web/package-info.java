/**
 * The HTTP edge shared by every feature: the error shape, request body reading and limits, conditional reads and keyset
 * listing, the fast dispatch of the hot reads, OpenAPI.
 */
package io.drover.receptor.web;
