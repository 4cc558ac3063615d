package io.drover.receptor.actuallrp;

import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.read.ActualLrpRow;
import io.drover.model.read.ActualLrpRows;
import io.drover.model.read.ListFingerprint;
import io.drover.receptor.web.ContinueToken;
import io.drover.receptor.web.KeysetListing;
import io.drover.receptor.web.ListTag;
import java.util.List;
import tools.jackson.core.JsonGenerator;

/** {@code GET /v1/actual_lrps[?domain=]} as keyset pages of the read model's rows, in (process_guid, index) order. */
record ActualLrpList(ActualLrpRows rows, ActualLrpJson json, String domain) implements
        KeysetListing.Source<ActualLrpRow> {

    static final String LIST = "actual_lrps";

    @Override
    public String list() {
        return LIST;
    }

    @Override
    public List<ActualLrpRow> page(ContinueToken after, int limit) {
        if (KeysetListing.matchesNothing(domain)) {
            return List.of();
        }
        return rows.page(domain, after == null ? null : ActualLrpKey.of(after.processGuid(), after.index()), limit);
    }

    /** The evacuating twins of the page's keys go with it (SPEC 8.5), beyond the page size. */
    @Override
    public List<ActualLrpRow> expand(ContinueToken after, List<ActualLrpRow> page, boolean last) {
        if (KeysetListing.matchesNothing(domain)) {
            return page;
        }
        return rows.withTwins(domain, after == null ? null : ActualLrpKey.of(after.processGuid(), after.index()), page,
                last);
    }

    @Override
    public ListFingerprint fingerprint() {
        return KeysetListing.matchesNothing(domain) ? KeysetListing.EMPTY : rows.fingerprint(domain);
    }

    @Override
    public ContinueToken positionAfter(ActualLrpRow row) {
        return new ContinueToken(LIST, domain, row.processGuid(), row.index());
    }

    @Override
    public void tag(ListTag tag, ActualLrpRow row) {
        tag.add(row.processGuid(), row.index(), row.epoch(), row.version());
    }

    @Override
    public void write(JsonGenerator generator, ActualLrpRow row) {
        json.write(generator, row);
    }

    /** An actual row is about 400 bytes of JSON: 1,000 of them are a few hundred KB in memory at most. */
    @Override
    public int chunk() {
        return 1_000;
    }

    @Override
    public int maxLimit() {
        return 5_000;
    }
}
