package io.drover.verify.check;

import io.drover.verify.history.Entry;
import io.drover.verify.history.Kinds;

/** Recorded calls for the checks' tables: times in milliseconds of the run, tags as {@code "e1:3"}. */
final class Calls {

    private Calls() {
    }

    static long ms(double millis) {
        return Math.round(millis * 1000);
    }

    static Entry.Call call(String client, String kind, String key, String method, String path, String ifMatch,
            String request, double invoke, double complete, int status, String etag, String body) {
        return new Entry.Call(client, kind, key, method, path, ifMatch, request, ms(invoke), ms(complete), status,
                etag == null ? null : "\"" + etag + "\"", body, null, -1);
    }

    static Entry.Call desire(String client, String key, int instances, double invoke, double complete, int status,
            String etag) {
        return call(client, Kinds.DESIRE, key, "POST", "/v1/desired_lrps", null,
                "{\"process_guid\": \"" + key + "\", \"instances\": " + instances + "}", invoke, complete, status, etag,
                null);
    }

    static Entry.Call scale(String client, String key, int instances, double invoke, double complete, int status,
            String etag) {
        return call(client, Kinds.UPDATE, key, "PUT", "/v1/desired_lrps/" + key, null,
                "{\"instances\": " + instances + "}", invoke, complete, status, etag, null);
    }

    static Entry.Call annotate(String client, String key, String annotation, String ifMatch, double invoke,
            double complete, int status, String etag) {
        return call(client, ifMatch == null ? Kinds.UPDATE : Kinds.UPDATE_IF_MATCH, key, "PUT",
                "/v1/desired_lrps/" + key, ifMatch == null ? null : "\"" + ifMatch + "\"",
                "{\"annotation\": \"" + annotation + "\"}", invoke, complete, status, etag, null);
    }

    static Entry.Call delete(String client, String key, double invoke, double complete, int status) {
        return call(client, Kinds.DELETE, key, "DELETE", "/v1/desired_lrps/" + key, null, null, invoke, complete,
                status, null, null);
    }

    static Entry.Call read(String client, String key, double invoke, double complete, String etag, int instances,
            String annotation) {
        return call(client, Kinds.READ_DESIRED, key, "GET", "/v1/desired_lrps/" + key, null, null, invoke, complete,
                200, etag, "{\"process_guid\": \"" + key + "\", \"instances\": " + instances + ", \"annotation\": "
                        + (annotation == null ? "null" : "\"" + annotation + "\"") + "}");
    }

    static Entry.Call readMissing(String client, String key, double invoke, double complete) {
        return call(client, Kinds.READ_DESIRED, key, "GET", "/v1/desired_lrps/" + key, null, null, invoke, complete,
                404, null, "{\"name\": \"DesiredLRPNotFound\"}");
    }
}
