/** The HTTP edge shared by every feature: the error shape, request body reading and limits, OpenAPI. */
package io.drover.receptor.web;
