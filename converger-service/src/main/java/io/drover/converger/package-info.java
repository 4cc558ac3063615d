/** The converger: the reconciliation loop that repairs every difference between desired and actual. */
package io.drover.converger;
