package io.drover.receptor.desiredlrp;

import io.drover.model.read.DesiredLrpRow;
import io.drover.model.read.DesiredLrpRows;
import io.drover.model.read.ListFingerprint;
import io.drover.receptor.web.ContinueToken;
import io.drover.receptor.web.KeysetListing;
import io.drover.receptor.web.ListTag;
import java.util.List;
import tools.jackson.core.JsonGenerator;

/** {@code GET /v1/desired_lrps[?domain=]} as keyset pages of the read model's rows, in process_guid order. */
record DesiredLrpList(DesiredLrpRows rows, String domain) implements KeysetListing.Source<DesiredLrpRow> {

    static final String LIST = "desired_lrps";

    @Override
    public String list() {
        return LIST;
    }

    @Override
    public List<DesiredLrpRow> page(ContinueToken after, int limit) {
        if (KeysetListing.matchesNothing(domain)) {
            return List.of();
        }
        return rows.page(domain, after == null ? null : after.processGuid(), limit);
    }

    @Override
    public ListFingerprint fingerprint() {
        return KeysetListing.matchesNothing(domain) ? KeysetListing.EMPTY : rows.fingerprint(domain);
    }

    @Override
    public ContinueToken positionAfter(DesiredLrpRow row) {
        return new ContinueToken(LIST, domain, row.processGuid(), 0);
    }

    @Override
    public void tag(ListTag tag, DesiredLrpRow row) {
        tag.add(row.processGuid(), 0, row.epoch(), row.version());
    }

    @Override
    public void write(JsonGenerator json, DesiredLrpRow row) {
        DesiredLrpJson.write(json, row);
    }

    /**
     * A desired LRP is about a kilobyte of JSON, but may carry up to a request body's worth of routes, annotation and
     * env: small internal pages keep an unlimited listing's memory bounded.
     */
    @Override
    public int chunk() {
        return 100;
    }

    @Override
    public int maxLimit() {
        return 1_000;
    }
}
