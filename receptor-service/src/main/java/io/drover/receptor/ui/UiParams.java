package io.drover.receptor.ui;

import java.util.regex.Pattern;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/**
 * The pages' query parameters. A filter is optional text of at most 256 printable characters; anything else could
 * never match a stored name and answers 400 (never a database error). A position is a non-negative index.
 */
final class UiParams {

    private static final Pattern PRINTABLE = Pattern.compile("[^\\p{Cntrl}]{0,256}");

    private UiParams() {
    }

    /** The filter's value, null when absent or blank. */
    static String filter(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        if (!PRINTABLE.matcher(value).matches()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "bad " + name + ": at most 256 printable characters");
        }
        return value.trim();
    }

    /** The index given, 0 when absent; 400 when it is not one. */
    static int index(String name, String value) {
        if (value == null || value.isBlank()) {
            return 0;
        }
        try {
            int index = Integer.parseInt(value.trim());
            if (index >= 0) {
                return index;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "bad " + name + ": a whole number from 0");
    }
}
