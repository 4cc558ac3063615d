/** The read model: named, typed queries over the schema that every service reads through instead of writing SQL. */
package io.drover.model.read;
