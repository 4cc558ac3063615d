package io.drover.cli.session;

/** The command line asks for something that cannot be done as given: exit code 2, with the command's usage line. */
public final class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }
}
