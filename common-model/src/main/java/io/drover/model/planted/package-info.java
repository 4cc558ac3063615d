/** Test-only switches that turn one guard off, so that the truth checker ({@code ./drover-verify}) can be seen failing. */
package io.drover.model.planted;
