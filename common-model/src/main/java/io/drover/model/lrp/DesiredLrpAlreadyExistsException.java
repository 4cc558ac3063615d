package io.drover.model.lrp;

/** A desired LRP with this process_guid exists already. */
public class DesiredLrpAlreadyExistsException extends RuntimeException {

    public DesiredLrpAlreadyExistsException(String processGuid) {
        super("desired LRP already exists: " + processGuid);
    }
}
