package io.drover.receptor.web;

import io.drover.model.read.ListFingerprint;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import tools.jackson.core.JsonGenerator;

/**
 * Answers a list request from keyset pages of rows, as a JSON array, the way Kubernetes pages its lists:
 * <ul>
 * <li>without {@code limit}: every row, streamed in internal pages of {@link Source#chunk()} rows, so the receptor
 * holds one page at a time however long the list. Its weak ETag is the database's fingerprint of the list, taken
 * before the first row is read;</li>
 * <li>with {@code limit=N} (1 up to {@link Source#maxLimit()}; more is served as the maximum): at most N rows after the
 * position of {@code continue}, and a {@code Drover-Continue} header with the token of the next page while rows
 * remain. Its weak ETag is a hash of the page's rows.</li>
 * </ul>
 * Either way {@code If-None-Match} with the current tag answers 304 without writing a row.
 */
public final class KeysetListing {

    public static final String CONTINUE_HEADER = "Drover-Continue";
    public static final ListFingerprint EMPTY = new ListFingerprint(0, "0");

    private KeysetListing() {
    }

    /** Where a listing reads its rows from and how it writes them. */
    public interface Source<R> {

        /** The list's name in continue tokens. */
        String list();

        /** Up to {@code limit} rows after {@code after} (from the start when null), in key order. */
        List<R> page(ContinueToken after, int limit);

        /**
         * The rows to write for {@code page}, read after {@code after}: the page itself, or the page with rows that go
         * with its keys without being counted by them (to the end of the list when {@code last}).
         */
        default List<R> expand(ContinueToken after, List<R> page, boolean last) {
            return page;
        }

        /** The whole list's fingerprint. */
        ListFingerprint fingerprint();

        /** The continue token of the position right after {@code row}. */
        ContinueToken positionAfter(R row);

        /** Adds {@code row}'s key, epoch and version to a page's tag. */
        void tag(ListTag tag, R row);

        void write(JsonGenerator json, R row);

        /** Rows per internal page of an unlimited listing. */
        int chunk();

        int maxLimit();
    }

    /** Writes the list (or the requested page of it) filtered by {@code domain} (null: none). */
    public static <R> void respond(HttpServletRequest request, HttpServletResponse response, Source<R> source,
            String domain, String limit, String continueToken) throws IOException {
        ContinueToken after = continueToken == null ? null : ContinueToken.decode(continueToken, source.list(), domain);
        if (limit == null) {
            if (after != null) {
                throw ApiException.badRequest(ApiError.INVALID_REQUEST, "continue needs limit");
            }
            all(request, response, source);
        } else {
            page(request, response, source, after, Math.min(parseLimit(limit), source.maxLimit()));
        }
    }

    private static <R> void all(HttpServletRequest request, HttpServletResponse response, Source<R> source)
            throws IOException {
        ListFingerprint fingerprint = source.fingerprint();
        String etag = EntityTags.weak("l-" + fingerprint.rows() + "-" + fingerprint.digest());
        if (JsonResponses.notModified(request, response, etag)) {
            return;
        }
        ContinueToken after = null;
        List<R> rows = source.page(after, source.chunk());
        try (JsonGenerator json = JsonResponses.ok(response, etag)) {
            json.writeStartArray();
            while (true) {
                boolean last = rows.size() < source.chunk();
                source.expand(after, rows, last).forEach(row -> source.write(json, row));
                if (last) {
                    break;
                }
                after = source.positionAfter(rows.get(rows.size() - 1));
                rows = source.page(after, source.chunk());
            }
            json.writeEndArray();
        }
    }

    private static <R> void page(HttpServletRequest request, HttpServletResponse response, Source<R> source,
            ContinueToken after, int limit) throws IOException {
        List<R> rows = source.page(after, limit + 1);
        boolean more = rows.size() > limit;
        List<R> page = source.expand(after, more ? rows.subList(0, limit) : rows, !more);
        ListTag tag = new ListTag();
        page.forEach(row -> source.tag(tag, row));
        String etag = tag.weakTag("p");
        if (more) {
            response.setHeader(CONTINUE_HEADER, source.positionAfter(rows.get(limit - 1)).encode());
        }
        if (JsonResponses.notModified(request, response, etag)) {
            return;
        }
        try (JsonGenerator json = JsonResponses.ok(response, etag)) {
            json.writeStartArray();
            page.forEach(row -> source.write(json, row));
            json.writeEndArray();
        }
    }

    /** A domain no row can have (PostgreSQL text cannot hold NUL): the list is empty without asking. */
    public static boolean matchesNothing(String domain) {
        return domain != null && domain.indexOf('\0') >= 0;
    }

    static int parseLimit(String limit) {
        try {
            int value = Integer.parseInt(limit.trim());
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw ApiException.badRequest(ApiError.INVALID_REQUEST, "limit must be a positive integer: " + limit);
    }
}
