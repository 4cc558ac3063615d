package io.drover.receptor.desiredlrp;

import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import java.util.List;
import java.util.stream.Collectors;

/** Turns the collected bad fields into one InvalidLRP naming every one of them, in a stable (sorted) order. */
final class FieldErrors {

    private FieldErrors() {
    }

    static void throwIfAny(List<String> fields) {
        if (!fields.isEmpty()) {
            throw ApiException.badRequest(ApiError.INVALID_LRP, message(fields));
        }
    }

    static String message(List<String> fields) {
        return fields.stream().distinct().sorted().map(f -> "Invalid field: " + f).collect(Collectors.joining(", "));
    }
}
