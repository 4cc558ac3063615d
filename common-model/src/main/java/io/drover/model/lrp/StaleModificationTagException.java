package io.drover.model.lrp;

/** The caller's modification tag ({@code If-Match}) no longer matches the row. */
public class StaleModificationTagException extends RuntimeException {

    public StaleModificationTagException(String processGuid) {
        super("desired LRP " + processGuid + " was changed since that modification tag");
    }
}
