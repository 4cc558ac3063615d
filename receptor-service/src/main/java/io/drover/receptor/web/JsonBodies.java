package io.drover.receptor.web;

import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads a request body as a JSON tree, strictly: at most {@code drover.receptor.max-body-bytes} (413 beyond, chunked
 * bodies included), valid UTF-8 only and no lone surrogates in strings ({@link UnicodeText}), duplicate keys and
 * trailing garbage rejected, nesting at most Jackson's default 500 levels, and any parse failure a 400 InvalidJSON. Features
 * validate the tree themselves, so a wrong type is a named field error rather than a binding exception.
 */
@Component
public class JsonBodies {

    private static final JsonMapper STRICT = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final int maxBytes;

    JsonBodies(@Value("${drover.receptor.max-body-bytes:1048576}") int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** The body as a JSON object; anything else (empty, malformed, an array) is InvalidJSON. */
    public JsonNode readObject(HttpServletRequest request) {
        return parseObject(read(request));
    }

    /** The body as a JSON object, or an empty object when there is no body; anything else is InvalidJSON. */
    public JsonNode readOptionalObject(HttpServletRequest request) {
        String body = read(request);
        return body.isBlank() ? STRICT.createObjectNode() : parseObject(body);
    }

    private String read(HttpServletRequest request) {
        String body = UnicodeText.decodeUtf8(readLimited(request));
        if (body == null) {
            throw ApiException.badRequest(ApiError.INVALID_JSON, "the request body is not valid UTF-8");
        }
        return body;
    }

    private static JsonNode parseObject(String body) {
        JsonNode tree;
        try {
            tree = body.isEmpty() ? null : STRICT.readTree(body);
        } catch (JacksonException e) {
            throw ApiException.badRequest(ApiError.INVALID_JSON, "invalid JSON: " + e.getOriginalMessage());
        }
        if (tree == null || !tree.isObject()) {
            throw ApiException.badRequest(ApiError.INVALID_JSON, "the request body must be a JSON object");
        }
        if (!UnicodeText.isWellFormed(tree)) {
            throw ApiException.badRequest(ApiError.INVALID_JSON,
                    "the request body has a string with a lone surrogate (\\uD800-\\uDFFF escape), which is no text");
        }
        return tree;
    }

    private byte[] readLimited(HttpServletRequest request) {
        try (InputStream in = request.getInputStream()) {
            byte[] body = in.readNBytes(maxBytes + 1);
            if (body.length > maxBytes) {
                throw tooLarge(maxBytes);
            }
            return body;
        } catch (IOException e) {
            throw ApiException.badRequest(ApiError.INVALID_REQUEST, "could not read the request body");
        }
    }

    static ApiException tooLarge(int maxBytes) {
        return new ApiException(HttpStatus.CONTENT_TOO_LARGE, ApiError.INVALID_REQUEST,
                "request body larger than " + maxBytes + " bytes");
    }
}
