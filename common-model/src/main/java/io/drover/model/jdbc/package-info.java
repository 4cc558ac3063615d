/** What the JDBC write paths share: a column of many rows bound as one typed array, for {@code unnest}. */
package io.drover.model.jdbc;
