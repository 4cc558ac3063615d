/** The deployer: moves every active deployment (SPEC 14) a step at a time, on the converger's leader only. */
package io.drover.converger.deploy;
