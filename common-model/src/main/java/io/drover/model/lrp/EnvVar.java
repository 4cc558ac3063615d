package io.drover.model.lrp;

/** One environment variable given to a process. */
public record EnvVar(String name, String value) {
}
