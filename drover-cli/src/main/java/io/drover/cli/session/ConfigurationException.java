package io.drover.cli.session;

/** Nothing says where the receptor is: exit code 2, with what to set. */
public final class ConfigurationException extends RuntimeException {

    public ConfigurationException(String message) {
        super(message);
    }
}
