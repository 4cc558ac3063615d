/** The random workload: clients calling the public REST API on a small key space, hostile requests among them. */
package io.drover.verify.workload;
