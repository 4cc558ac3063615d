package io.drover.model.lrp;

/** No desired LRP has this process_guid. */
public class DesiredLrpNotFoundException extends RuntimeException {

    public DesiredLrpNotFoundException(String processGuid) {
        super("desired LRP not found: " + processGuid);
    }
}
