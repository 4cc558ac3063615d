package io.drover.receptor.desiredlrp;

import io.drover.model.lrp.ModificationTag;
import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import java.util.Arrays;
import java.util.List;

/**
 * The modification tag as an HTTP entity tag: {@code "<epoch>:<index>"}. {@code If-Match} takes one or more of them
 * (or {@code *}); a malformed one is an InvalidRequest rather than a silent unconditional write.
 */
final class ETags {

    private ETags() {
    }

    static String of(ModificationTag tag) {
        return "\"" + tag.epoch() + ":" + tag.index() + "\"";
    }

    /** The tags of an If-Match header; empty for {@code *} (any version). */
    static List<ModificationTag> parseIfMatch(String header) {
        if (header.isBlank()) {
            throw malformed();
        }
        if (header.trim().equals("*")) {
            return List.of();
        }
        // -1: empty items count ("," is malformed, not an If-Match without tags, which would be an unconditional write)
        return Arrays.stream(header.split(",", -1)).map(String::trim).map(ETags::parse).toList();
    }

    private static ModificationTag parse(String etag) {
        String value = etag.startsWith("W/") ? etag.substring(2) : etag;
        if (value.length() < 2 || !value.startsWith("\"") || !value.endsWith("\"")) {
            throw malformed();
        }
        String[] parts = value.substring(1, value.length() - 1).split(":", -1);
        if (parts.length != 2 || !DesiredLrpRequests.isUuid(parts[0]) || !parts[1].matches("[0-9]{1,18}")) {
            throw malformed();
        }
        return new ModificationTag(java.util.UUID.fromString(parts[0]), Long.parseLong(parts[1]));
    }

    private static ApiException malformed() {
        return ApiException.badRequest(ApiError.INVALID_REQUEST,
                "If-Match must be * or a quoted modification tag \"<epoch>:<index>\" as returned in ETag");
    }
}
