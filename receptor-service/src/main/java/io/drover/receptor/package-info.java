/** The receptor: Drover's public REST API (desired state in, actual state out, event stream). */
package io.drover.receptor;
