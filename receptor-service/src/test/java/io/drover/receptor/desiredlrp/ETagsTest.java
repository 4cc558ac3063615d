package io.drover.receptor.desiredlrp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.model.lrp.ModificationTag;
import io.drover.receptor.web.ApiException;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ETagsTest {

    private final ModificationTag tag = new ModificationTag(UUID.fromString("0b7c4e8e-58cb-4a7e-9d1b-5e0b0f7a1c2d"), 7);

    @Test
    void anETagRoundTripsThroughIfMatch() {
        assertThat(ETags.parseIfMatch(ETags.of(tag))).containsExactly(tag);
        assertThat(ETags.parseIfMatch("W/" + ETags.of(tag) + ", \"" + tag.epoch() + ":8\"")).hasSize(2);
    }

    @Test
    void aStarMatchesAnyVersion() {
        assertThat(ETags.parseIfMatch("*")).isEmpty();
    }

    @Test
    void aMalformedIfMatchIsAnInvalidRequest() {
        for (String bad : new String[] { "", "7", "\"7\"", "\"" + tag.epoch() + "\"", "\"x:1\"",
                "\"" + tag.epoch() + ":-1\"", "\"" + tag.epoch() + ":99999999999999999999\"",
                ",", " , ", ETags.of(tag) + ",", "," + ETags.of(tag), ETags.of(tag) + ",,*" }) {
            assertThatThrownBy(() -> ETags.parseIfMatch(bad)).isInstanceOf(ApiException.class);
        }
    }
}
