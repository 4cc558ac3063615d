package io.drover.receptor.web;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * Text a request may carry: strictly valid UTF-8 bytes (no overlong forms, encoded surrogates or code points above
 * U+10FFFF, which Jackson's byte parser lets through), and JSON strings that are whole Unicode (no lone surrogate from a
 * {@code \uD800} escape: no UTF-8 can store or send one back).
 */
final class UnicodeText {

    private UnicodeText() {
    }

    /** The bytes as text, or null when they are not valid UTF-8. */
    static String decodeUtf8(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** True when every property name and string value of the tree is well-formed UTF-16. */
    static boolean isWellFormed(JsonNode node) {
        if (node.isString()) {
            return isWellFormed(node.stringValue());
        }
        if (node.isObject()) {
            for (Map.Entry<String, JsonNode> property : node.properties()) {
                if (!isWellFormed(property.getKey()) || !isWellFormed(property.getValue())) {
                    return false;
                }
            }
            return true;
        }
        for (JsonNode child : node) {
            if (!isWellFormed(child)) {
                return false;
            }
        }
        return true;
    }

    static boolean isWellFormed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
