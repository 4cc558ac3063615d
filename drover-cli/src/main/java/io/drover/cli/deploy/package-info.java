/** {@code drover deploy} and {@code drover rollout status|pause|resume|promote|cancel|undo}: deployments (SPEC 14). */
package io.drover.cli.deploy;
