/** The one JSON mapping Drover uses for message contracts and JSON columns: snake_case, ISO instants, lenient on additions. */
package io.drover.model.json;
