package io.drover.receptor.web;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Base64;
import java.util.Objects;

/**
 * Where the next page of a list starts: the key of the last row of the previous page, bound to the list it came from
 * (the resource and the domain filter). Opaque to clients (URL-safe base64 of a small binary record); a token that does
 * not decode, or belongs to another list, is an InvalidRequest. A token names a position, not a snapshot: it stays
 * valid however long the client waits, and however the list changes meanwhile.
 *
 * @param list which list: {@code actual_lrps} or {@code desired_lrps}
 * @param domain the domain filter, null for none
 * @param processGuid the process_guid of the last row returned
 * @param index the index of the last row returned (0 for desired LRPs)
 */
public record ContinueToken(String list, String domain, String processGuid, int index) {

    private static final int VERSION = 1;

    public ContinueToken {
        Objects.requireNonNull(list);
        Objects.requireNonNull(processGuid);
    }

    public String encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeUTF(list);
            out.writeBoolean(domain != null);
            out.writeUTF(domain == null ? "" : domain);
            out.writeUTF(processGuid);
            out.writeInt(index);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes.toByteArray());
    }

    /** The position {@code token} names in the list {@code list} filtered by {@code domain}. */
    public static ContinueToken decode(String token, String list, String domain) {
        ContinueToken decoded;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(Base64.getUrlDecoder().decode(token)))) {
            if (in.readUnsignedByte() != VERSION) {
                throw invalid("continue token of an unknown version");
            }
            String tokenList = in.readUTF();
            boolean hasDomain = in.readBoolean();
            String tokenDomain = in.readUTF();
            decoded = new ContinueToken(tokenList, hasDomain ? tokenDomain : null, in.readUTF(), in.readInt());
            if (in.read() != -1) {
                throw invalid("malformed continue token");
            }
        } catch (IOException | IllegalArgumentException e) {
            throw invalid("malformed continue token");
        }
        if (!decoded.list.equals(list) || !Objects.equals(decoded.domain, domain)) {
            throw invalid("the continue token belongs to another list (resource or domain)");
        }
        if (!ProcessGuids.isValid(decoded.processGuid) || decoded.index < 0) {
            throw invalid("malformed continue token");
        }
        return decoded;
    }

    private static ApiException invalid(String message) {
        return ApiException.badRequest(ApiError.INVALID_REQUEST, message);
    }
}
