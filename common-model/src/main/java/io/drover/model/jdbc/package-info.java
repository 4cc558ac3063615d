/**
 * What the JDBC write paths share: a column of many rows bound as one typed array, for {@code unnest}, and text made
 * storable (no NUL, no lone surrogate) before it is bound.
 */
package io.drover.model.jdbc;
