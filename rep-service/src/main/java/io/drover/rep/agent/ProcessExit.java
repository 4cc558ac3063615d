package io.drover.rep.agent;

/**
 * Ends the JVM with a status once the rep's context has closed. Only a rep that owns its JVM ({@code RepApplication}'s
 * main) registers one; a rep started inside another process (the local cluster, the tests) just closes its context.
 */
@FunctionalInterface
public interface ProcessExit {

    void exit(int status);
}
