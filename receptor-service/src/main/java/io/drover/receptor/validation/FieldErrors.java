package io.drover.receptor.validation;

import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Turns the collected bad fields into one error (InvalidLRP, InvalidTask) naming every one of them, in a stable
 * (sorted) order.
 */
public final class FieldErrors {

    private FieldErrors() {
    }

    public static void throwIfAny(String errorName, List<String> fields) {
        if (!fields.isEmpty()) {
            throw ApiException.badRequest(errorName, message(fields));
        }
    }

    public static String message(List<String> fields) {
        return fields.stream().distinct().sorted().map(f -> "Invalid field: " + f).collect(Collectors.joining(", "));
    }
}
