/** The checker seen failing: for each check, a scenario with a guard turned off, and the check that must catch it. */
package io.drover.verify.planted;
