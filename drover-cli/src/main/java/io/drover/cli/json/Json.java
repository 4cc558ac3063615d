package io.drover.cli.json;

/**
 * Reads JSON text into a tree (strictly: one value, nothing after it but white space, at most {@value #MOST_DEPTH}
 * levels) and makes new nodes. {@code node.toString()} writes compact JSON.
 */
public final class Json {

    static final int MOST_DEPTH = 512;

    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    public static ObjectNode object() {
        return new ObjectNode();
    }

    public static ArrayNode array() {
        return new ArrayNode();
    }

    public static JsonNode text(String value) {
        return new JsonNode(JsonNode.Kind.STRING, value);
    }

    public static JsonNode number(long value) {
        return new JsonNode(JsonNode.Kind.NUMBER, Long.toString(value));
    }

    public static JsonNode nullNode() {
        return JsonNode.NULL;
    }

    /** The value {@code text} holds; {@link IllegalArgumentException} saying where when it is not JSON. */
    public static JsonNode parse(String text) {
        Json parser = new Json(text);
        JsonNode value = parser.value(0);
        parser.skipSpace();
        if (parser.at < text.length()) {
            throw parser.error("unexpected text after the value");
        }
        return value;
    }

    private JsonNode value(int depth) {
        if (depth > MOST_DEPTH) {
            throw error("nested deeper than " + MOST_DEPTH + " levels");
        }
        skipSpace();
        if (at >= text.length()) {
            throw error("unexpected end");
        }
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> text(string());
            case 't' -> literal("true", JsonNode.TRUE);
            case 'f' -> literal("false", JsonNode.FALSE);
            case 'n' -> literal("null", JsonNode.NULL);
            default -> {
                if (c == '-' || c >= '0' && c <= '9') {
                    yield number();
                }
                throw error("unexpected '" + c + "'");
            }
        };
    }

    private ObjectNode object(int depth) {
        ObjectNode object = new ObjectNode();
        at++;
        skipSpace();
        if (peek() == '}') {
            at++;
            return object;
        }
        while (true) {
            skipSpace();
            if (peek() != '"') {
                throw error("expected a field name");
            }
            String name = string();
            skipSpace();
            expect(':');
            object.set(name, value(depth + 1));
            skipSpace();
            char c = next();
            if (c == '}') {
                return object;
            }
            if (c != ',') {
                throw error("expected ',' or '}'");
            }
        }
    }

    private ArrayNode array(int depth) {
        ArrayNode array = new ArrayNode();
        at++;
        skipSpace();
        if (peek() == ']') {
            at++;
            return array;
        }
        while (true) {
            array.add(value(depth + 1));
            skipSpace();
            char c = next();
            if (c == ']') {
                return array;
            }
            if (c != ',') {
                throw error("expected ',' or ']'");
            }
        }
    }

    private String string() {
        at++; // the opening quote
        StringBuilder out = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return out.toString();
            }
            if (c < 0x20) {
                throw error("a control character in a string");
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char escaped = next();
            switch (escaped) {
                case '"', '\\', '/' -> out.append(escaped);
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("a short \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    } catch (NumberFormatException e) {
                        throw error("a bad \\u escape");
                    }
                    at += 4;
                }
                default -> throw error("a bad escape \\" + escaped);
            }
        }
    }

    private JsonNode number() {
        int start = at;
        if (peek() == '-') {
            at++;
        }
        digits();
        if (peek() == '.') {
            at++;
            digits();
        }
        if (peek() == 'e' || peek() == 'E') {
            at++;
            if (peek() == '+' || peek() == '-') {
                at++;
            }
            digits();
        }
        return new JsonNode(JsonNode.Kind.NUMBER, text.substring(start, at));
    }

    private void digits() {
        int start = at;
        while (at < text.length() && text.charAt(at) >= '0' && text.charAt(at) <= '9') {
            at++;
        }
        if (at == start) {
            throw error("expected a digit");
        }
    }

    private JsonNode literal(String word, JsonNode value) {
        if (!text.startsWith(word, at)) {
            throw error("unexpected '" + text.charAt(at) + "'");
        }
        at += word.length();
        return value;
    }

    private void skipSpace() {
        while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\n' || text.charAt(at) == '\r'
                || text.charAt(at) == '\t')) {
            at++;
        }
    }

    private char peek() {
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private char next() {
        if (at >= text.length()) {
            throw error("unexpected end");
        }
        return text.charAt(at++);
    }

    private void expect(char c) {
        if (next() != c) {
            throw error("expected '" + c + "'");
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException("not JSON: " + what + " at character " + at);
    }
}
