package io.drover.verify.check;

import io.drover.model.json.Json;
import io.drover.verify.history.Entry;
import io.drover.verify.history.History;
import io.drover.verify.history.Kinds;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Which definition each workload label stands for. Every definition the clients write (a create, a deployment) puts a
 * label of its own in the instances' environment ({@code LABEL}); the answer names the version the cluster gave it
 * (1 for a create, {@code to_version} for a deployment). A label whose call was not answered stands for nothing known.
 */
public final class Labels {

    /** The LRP and definition version a label was given. */
    public record Definition(String processGuid, int version) {
    }

    public static final String ENV = "LABEL";

    private final Map<String, Definition> byLabel;

    private Labels(Map<String, Definition> byLabel) {
        this.byLabel = byLabel;
    }

    public static Labels of(History history) {
        Map<String, Definition> labels = new HashMap<>();
        for (Entry.Call call : history.calls(Kinds.DESIRE, Kinds.DEPLOY)) {
            if (call.status() != 201 || call.requestBody() == null) {
                continue;
            }
            String label = label(Json.tree(call.requestBody()));
            if (label == null) {
                continue;
            }
            int version = call.kind().equals(Kinds.DESIRE) ? 1 : Json.tree(call.body()).path("to_version").asInt();
            labels.put(label, new Definition(call.key(), version));
        }
        return new Labels(labels);
    }

    /** The label a desire or deployment body puts into the environment, if any. */
    public static String label(JsonNode body) {
        for (JsonNode env : body.path("env")) {
            if (ENV.equals(env.path("name").asString())) {
                return env.path("value").asString();
            }
        }
        return null;
    }

    public Optional<Definition> definition(String label) {
        return Optional.ofNullable(label == null ? null : byLabel.get(label));
    }
}
