package io.drover.model.planted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PlantedBugTest {

    @AfterEach
    void takeThemOut() {
        System.clearProperty(PlantedBug.PROPERTY);
    }

    @Test
    void withoutThePropertyNoBugIsPlanted() {
        assertThat(PlantedBug.values()).noneMatch(PlantedBug::planted);
    }

    @Test
    void thePropertyPlantsTheBugsItNamesAndTakingItOutTakesThemOut() {
        System.setProperty(PlantedBug.PROPERTY, "if-match,outbox-ack");
        assertThat(PlantedBug.values()).filteredOn(PlantedBug::planted)
                .containsExactlyInAnyOrder(PlantedBug.IF_MATCH, PlantedBug.OUTBOX_ACK);
        System.clearProperty(PlantedBug.PROPERTY);
        assertThat(PlantedBug.IF_MATCH.planted()).isFalse();
    }

    @Test
    void anUnknownNamePlantsNothing() {
        System.setProperty(PlantedBug.PROPERTY, "if-matc");
        assertThat(PlantedBug.values()).noneMatch(PlantedBug::planted);
        assertThatThrownBy(() -> PlantedBug.named("if-matc")).isInstanceOf(IllegalArgumentException.class);
        assertThat(PlantedBug.named("claim-version-check")).isEqualTo(PlantedBug.CLAIM_VERSION_CHECK);
    }
}
