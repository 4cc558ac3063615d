package io.drover.receptor.web;

import java.util.regex.Pattern;

/** The process_guid grammar of SPEC 5.2: a guid outside it could never have been created, so it is never looked up. */
public final class ProcessGuids {

    public static final Pattern PATTERN = Pattern.compile("[a-zA-Z0-9_-]{1,128}");

    private ProcessGuids() {
    }

    public static boolean isValid(String processGuid) {
        return processGuid != null && PATTERN.matcher(processGuid).matches();
    }
}
