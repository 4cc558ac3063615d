package io.drover.rep.executor.process;

/**
 * Crash reasons from an exit value. The JDK reports death by signal N as 128 + N, as shells do; an explicit
 * {@code exit 137} therefore also reads as signal 9 (the two cannot be told apart from outside).
 */
final class ExitStatus {

    private ExitStatus() {
    }

    static String describe(int exitValue) {
        if (exitValue > 128 && exitValue <= 128 + 64) {
            return "killed by signal " + (exitValue - 128);
        }
        return "exited with status " + exitValue;
    }
}
