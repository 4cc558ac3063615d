/** Request bodies read field by field: every bad field named by its path, actions validated as a tree. */
package io.drover.receptor.validation;
