package io.drover.converger.plan;

import static io.drover.converger.plan.Given.NOW;
import static io.drover.converger.plan.Given.ago;
import static io.drover.converger.plan.Given.given;
import static io.drover.converger.plan.Given.key;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.lrp.CrashRestartPolicy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Each case: given this snapshot, expect exactly this plan. */
class ConvergenceTest {

    private final Convergence convergence = new Convergence(CrashRestartPolicy.defaults(), Duration.ofSeconds(30),
            Duration.ofMinutes(5), Duration.ofSeconds(6), 3, 2);

    private Plan plan(Given given) {
        return convergence.plan(given.snapshot());
    }

    @Nested
    class NothingToDo {

        @Test
        void anEmptySnapshotNeedsNothing() {
            assertThat(plan(given())).isEqualTo(Plan.builder().build()).matches(Plan::isEmpty);
        }

        @Test
        void aConvergedSnapshotNeedsNothing() {
            Plan plan = plan(given().freshDomain().liveCells("cell-1", "cell-2")
                    .desired("web", 5)
                    .running("web", 0, "cell-1")
                    .claimed("web", 1, "cell-2")
                    .unclaimed("web", 2, ago(29))
                    .crashed("web", 3, 3, ago(29))
                    .crashed("web", 4, 200, ago(86_400))
                    .desired("none-wanted", 0));

            assertThat(plan).isEqualTo(Plan.builder().build());
            assertThat(plan.isEmpty()).isTrue();
        }
    }

    @Nested
    class Rule1MissingIndex {

        @Test
        void aMissingIndexIsCreated() {
            Plan plan = plan(given().liveCells("cell-1").desired("web", 3)
                    .running("web", 0, "cell-1").running("web", 2, "cell-1"));

            assertThat(plan).isEqualTo(Plan.builder().missing("web", Given.DOMAIN, List.of(1)).build());
            assertThat(plan.missingInstances()).isOne();
        }

        @Test
        void anLrpKnownWholeIsMissingNothingThoughOnlyItsCrashedInstanceIsListed() {
            Plan plan = plan(given().liveCells("cell-1").desired("web", 10).whole("web")
                    .crashed("web", 7, 1, ago(600)));

            assertThat(plan.missingInstances()).isZero();
            assertThat(plan.actions(Rule.CRASH_RESTART)).isOne();
        }

        @Test
        void aDesiredLrpWithNoActualsGetsAllItsIndicesInOneAction() {
            assertThat(plan(given().desired("web", 3).desired("worker", 1)))
                    .isEqualTo(Plan.builder()
                            .missing("web", Given.DOMAIN, List.of(0, 1, 2))
                            .missing("worker", Given.DOMAIN, List.of(0))
                            .build());
        }

        @Test
        void missingIndicesAreFoundWhateverTheStateOfTheOthers() {
            assertThat(plan(given().liveCells("cell-1").desired("web", 4)
                    .crashed("web", 3, 200, ago(1)).unclaimed("web", 1, ago(1))))
                    .isEqualTo(Plan.builder().missing("web", Given.DOMAIN, List.of(0, 2)).build());
        }

        @Test
        void aMissingIndexNeedsNoFreshDomain() {
            assertThat(plan(given().desired("web", 1)).missingInstances()).isOne();
        }
    }

    @Nested
    class Rule2LostCell {

        @Test
        void claimedAndRunningOnAnExpiredCellAreUnclaimed() {
            assertThat(plan(given().liveCells("cell-live").desired("web", 3)
                    .claimed("web", 0, "cell-gone")
                    .running("web", 1, "cell-gone")
                    .running("web", 2, "cell-live")))
                    .isEqualTo(Plan.builder().lostCell(key("web", 0)).lostCell(key("web", 1)).build());
        }

        @Test
        void aBurstOfLostInstancesIsRateLimitedPerPass() {
            Plan plan = plan(given().desired("web", 5)
                    .running("web", 0, "a").running("web", 1, "b").running("web", 2, "c")
                    .running("web", 3, "d").running("web", 4, "e"));

            assertThat(plan).isEqualTo(Plan.builder()
                    .lostCell(key("web", 0)).lostCell(key("web", 1)).lostCell(key("web", 2))
                    .deferredLostCell(2).build());
        }

        /**
         * A new leader's grace spares the cells that died while no converger judged: after the last pass before the
         * election ("judged") and no later than the election, for 15 s after it. Times in seconds ago; "-" = never.
         */
        @ParameterizedTest(name = "[{index}] {0}")
        @CsvSource(delimiter = '|', textBlock = """
                # case                                          | judged | elected | expired | spared
                died while no converger judged, grace running   | 60     | 10      | 30      | true
                died at the very election                       | 60     | 10      | 10      | true
                died before the last pass: already judged       | 60     | 10      | 61      | false
                died at the last pass: already judged           | 60     | 10      | 60      | false
                died after the election, watched by this leader | 60     | 10      | 5       | false
                the grace is over                               | 60     | 16      | 30      | false
                the grace ends now                              | 60     | 15      | 30      | false
                no converger ever judged                        | -      | 10      | 3600    | true
                no election grace at all                        | -      | -       | 30      | false
                """)
        void aNewLeadersGraceHoldsRuleTwoBackForTheCellsNobodyJudged(String description, String judgedAgo,
                String electedAgo, int expiredAgo, boolean spared) {
            Given given = given().liveCells("cell-live").desired("web", 2)
                    .running("web", 0, "cell-dead").running("web", 1, "cell-live")
                    .expiredCell("cell-dead", ago(expiredAgo));
            if (!electedAgo.equals("-")) {
                given.electedWithGrace(judgedAgo.equals("-") ? null : ago(Integer.parseInt(judgedAgo)),
                        ago(Integer.parseInt(electedAgo)), Duration.ofSeconds(15));
            }

            assertThat(plan(given)).isEqualTo(spared ? Plan.builder().gracedLostCell(1).build()
                    : Plan.builder().lostCell(key("web", 0)).build());
        }

        /**
         * After a database outage the leader freezes rather than judges (docs/ha.md): from its last pass before the
         * outage ("judged") to the end of the grace, 15 s after the database came back ("back"), no presence that ran
         * out is held against its cell, those that run out after the database came back included: each rep reaches it
         * again in its own time. Times in seconds ago.
         */
        @ParameterizedTest(name = "[{index}] {0}")
        @CsvSource(delimiter = '|', textBlock = """
                # case                                                 | judged | back | expired | spared
                ran out while the database was away                    | 60     | 10   | 30      | true
                ran out after the database came back, before its rep   | 60     | 10   | 5       | true
                ran out just now                                       | 60     | 10   | 0       | true
                ran out before the last pass: already judged           | 60     | 10   | 61      | false
                the grace is over                                      | 60     | 16   | 5       | false
                """)
        void afterADatabaseOutageTheLeaderJudgesNoPresenceThatRanOutSinceItsLastPass(String description, int judgedAgo,
                int backAgo, int expiredAgo, boolean spared) {
            Given given = given().liveCells("cell-live").desired("web", 2)
                    .running("web", 0, "cell-dead").running("web", 1, "cell-live")
                    .expiredCell("cell-dead", ago(expiredAgo))
                    .backFromOutageWithGrace(ago(judgedAgo), ago(backAgo), Duration.ofSeconds(15));

            assertThat(plan(given)).isEqualTo(spared ? Plan.builder().gracedLostCell(1).build()
                    : Plan.builder().lostCell(key("web", 0)).build());
        }

        @Test
        void theGraceSparesOnlyTheCellsItCoversAndNeverACellWithNoPresenceRow() {
            Plan plan = plan(given().desired("web", 4).electedWithGrace(ago(60), ago(10), Duration.ofSeconds(15))
                    .expiredCell("cell-unjudged", ago(30)).expiredCell("cell-judged", ago(90))
                    .running("web", 0, "cell-unjudged").claimed("web", 1, "cell-unjudged")
                    .running("web", 2, "cell-judged").running("web", 3, "cell-without-row"));

            assertThat(plan).isEqualTo(Plan.builder().lostCell(key("web", 2)).lostCell(key("web", 3))
                    .gracedLostCell(2).build());
            assertThat(plan.isEmpty()).isFalse();
        }

        @Test
        void anUnwantedInstanceOnALostCellIsNotRestarted() {
            assertThat(plan(given().desired("web", 1).running("web", 0, "cell-live").running("web", 1, "cell-gone")
                    .running("gone", 0, "cell-gone").liveCells("cell-live")))
                    .isEqualTo(Plan.builder().unfreshExtraIndex(1).unfreshOrphan(1).build());
        }
    }

    @Nested
    class Rule3StaleUnclaimed {

        @Test
        void unclaimedForTwentyNineSecondsIsLeftAlone() {
            assertThat(plan(given().desired("web", 1).unclaimed("web", 0, ago(29)))).matches(Plan::isEmpty);
        }

        @Test
        void unclaimedForExactlyThirtySecondsIsLeftAlone() {
            assertThat(plan(given().desired("web", 1).unclaimed("web", 0, ago(30)))).matches(Plan::isEmpty);
        }

        @Test
        void unclaimedForThirtyOneSecondsIsAuctionedAgain() {
            assertThat(plan(given().desired("web", 1).unclaimed("web", 0, ago(31))))
                    .isEqualTo(Plan.builder().staleUnclaimed(key("web", 0)).build());
        }

        @Test
        void aRecentPlacementKeepsAnOldUnclaimedInstanceWaitingForItsCell() {
            assertThat(plan(given().liveCells("cell-1").desired("web", 1)
                    .placed("web", 0, ago(300), "cell-1", ago(29))))
                    .matches(Plan::isEmpty);
        }

        @Test
        void aPlacementTheCellNeverClaimedIsAuctionedAgain() {
            assertThat(plan(given().liveCells("cell-1").desired("web", 1)
                    .placed("web", 0, ago(300), "cell-1", ago(31))))
                    .isEqualTo(Plan.builder().staleUnclaimed(key("web", 0)).build());
        }

        @Test
        void aBacklogOfStaleInstancesIsRateLimitedPerPass() {
            Plan plan = plan(given().liveCells("cell-1").desired("web", 4)
                    .placed("web", 0, ago(300), "cell-1", ago(31)).unclaimed("web", 1, ago(31))
                    .placed("web", 2, ago(300), "cell-gone", ago(1)).unclaimed("web", 3, ago(31)));

            assertThat(plan).isEqualTo(Plan.builder().staleUnclaimed(key("web", 0)).staleUnclaimed(key("web", 1))
                    .deferredStaleUnclaimed(2).build());
            assertThat(plan.isEmpty()).isFalse();
        }

        @Test
        void aPlacementOnACellWhosePresenceExpiredIsAuctionedAgainAtOnce() {
            assertThat(plan(given().liveCells("cell-2").desired("web", 1)
                    .placed("web", 0, ago(2), "cell-1", ago(1))))
                    .isEqualTo(Plan.builder().staleUnclaimed(key("web", 0)).build());
        }

        /**
         * Rule 3 follows the pipeline: an instance is stale once the stage it waits on (the auction when it is not
         * placed, its cell when it is) has passed its request by more than 30 s, the stage never counted ahead of the
         * relay; or once it has waited 5 min whatever the stages say. Times in seconds ago; "-" = never reported.
         */
        @ParameterizedTest(name = "[{index}] {0}: asked {2} s ago, relayed through {3}, stage through {4} -> {5}")
        @CsvSource(delimiter = '|', textBlock = """
                # case                                     | placed | asked | relayed | stage | stale
                queued at the auction                      | no     | 100   | 0       | 75    | false
                the auction passed it 31 s ago             | no     | 100   | 0       | 69    | true
                the auction passed it exactly 30 s ago     | no     | 100   | 0       | 70    | false
                no auctioneer ever reported: its age       | no     | 31    | 0       | -     | true
                no auctioneer ever reported, young         | no     | 29    | 0       | -     | false
                the relay has not sent it                  | no     | 100   | 80      | 0     | false
                the relay sent it, the auction passed it   | no     | 100   | 60      | 60    | true
                queued at a live cell                      | yes    | 100   | 0       | 80    | false
                the cell passed it 31 s ago                | yes    | 100   | 0       | 69    | true
                the cell reported nothing: its age         | yes    | 31    | 0       | -     | true
                the relay has not sent the placement       | yes    | 100   | 90      | 0     | false
                waited 5 min, the auction still behind     | no     | 301   | 0       | 300   | true
                waited just under 5 min                    | no     | 299   | 0       | 299   | false
                waited 5 min at a cell still behind        | yes    | 301   | 0       | 301   | true
                a stage 5 s behind: its report's age       | no     | 31    | 0       | 5     | true
                a stage 6 s behind: a queue                | no     | 31    | 0       | 6     | false
                a cell 5 s behind: its heartbeat's age     | yes    | 31    | 0       | 5     | true
                """)
        void anInstanceIsStaleOnceItsStageHasPassedItsRequest(String description, String placed, int askedAgo,
                int relayedAgo, String stageAgo, boolean stale) {
            Given given = given().liveCells("cell-1").desired("web", 1).relayedThrough(ago(relayedAgo));
            if (placed.equals("yes")) {
                given.placed("web", 0, ago(askedAgo + 60), "cell-1", ago(askedAgo));
                if (!stageAgo.equals("-")) {
                    given.placementsTakenUpThrough("cell-1", ago(Integer.parseInt(stageAgo)));
                }
            } else {
                given.unclaimed("web", 0, ago(askedAgo));
                if (!stageAgo.equals("-")) {
                    given.auctionedThrough(ago(Integer.parseInt(stageAgo)));
                }
            }
            assertThat(plan(given)).as(description).isEqualTo(stale
                    ? Plan.builder().staleUnclaimed(key("web", 0)).build() : Plan.builder().build());
        }

        @Test
        void aCellsProgressSaysNothingAboutAnotherCellsPlacementsOrTheAuction() {
            assertThat(plan(given().liveCells("cell-1", "cell-2").desired("web", 3)
                    .placementsTakenUpThrough("cell-1", ago(200)).auctionedThrough(ago(200))
                    .placed("web", 0, ago(300), "cell-1", ago(100))
                    .placed("web", 1, ago(300), "cell-2", ago(100))
                    .unclaimed("web", 2, ago(100))))
                    .isEqualTo(Plan.builder().staleUnclaimed(key("web", 1)).build());
        }
    }

    @Nested
    class Rule4CrashRestart {

        @ParameterizedTest(name = "crash {0} waits {1} s")
        @CsvSource({ "3, 30", "4, 60", "5, 120", "6, 240", "7, 480", "8, 960", "100, 960", "199, 960" })
        void aCrashedInstanceIsRestartedExactlyWhenItsBackOffIsOver(int crashCount, int backOffSeconds) {
            assertThat(plan(given().desired("web", 1).crashed("web", 0, crashCount, ago(backOffSeconds - 1))))
                    .isEqualTo(Plan.builder().build());
            assertThat(plan(given().desired("web", 1).crashed("web", 0, crashCount, ago(backOffSeconds))))
                    .isEqualTo(Plan.builder().crashRestart(key("web", 0)).build());
        }

        @Test
        void theTwoHundredthCrashIsNeverRestarted() {
            assertThat(plan(given().desired("web", 1).crashed("web", 0, 200, NOW.minus(Duration.ofDays(30)))))
                    .matches(Plan::isEmpty);
        }
    }

    @Nested
    class Rule5ExtraIndex {

        @Test
        void anIndexBeyondTheDesiredInstancesIsRetiredWhenTheDomainIsFresh() {
            assertThat(plan(given().freshDomain().liveCells("cell-1").desired("web", 2)
                    .running("web", 0, "cell-1").running("web", 1, "cell-1")
                    .running("web", 2, "cell-1").crashed("web", 3, 5, ago(10_000)).unclaimed("web", 4, ago(100))))
                    .isEqualTo(Plan.builder()
                            .extraIndex(key("web", 2)).extraIndex(key("web", 3)).extraIndex(key("web", 4)).build());
        }

        @Test
        void anIndexBeyondTheDesiredInstancesIsKeptAndCountedWhenTheDomainIsStale() {
            Plan plan = plan(given().liveCells("cell-1").desired("web", 2)
                    .running("web", 0, "cell-1").running("web", 1, "cell-1").running("web", 2, "cell-1"));

            assertThat(plan).isEqualTo(Plan.builder().unfreshExtraIndex(1).build());
            assertThat(plan.extraInstances()).isOne();
            assertThat(plan.skippedUnfresh()).isOne();
        }

        @Test
        void anExtraIndexOnALostCellIsRetiredNotUnclaimed() {
            assertThat(plan(given().freshDomain().desired("web", 0).running("web", 0, "cell-gone")))
                    .isEqualTo(Plan.builder().extraIndex(key("web", 0)).build());
        }
    }

    @Nested
    class Rule6Orphan {

        @Test
        void anActualWithNoDesiredLrpIsRetiredWhenTheDomainIsFresh() {
            assertThat(plan(given().freshDomain().liveCells("cell-1")
                    .running("gone", 0, "cell-1").unclaimed("gone", 1, ago(1))))
                    .isEqualTo(Plan.builder().orphan(key("gone", 0)).orphan(key("gone", 1)).build());
        }

        @Test
        void anActualWithNoDesiredLrpIsKeptAndCountedWhenTheDomainIsStale() {
            Plan plan = plan(given().liveCells("cell-1").running("gone", 0, "cell-1").crashed("gone", 1, 3, ago(99)));

            assertThat(plan).isEqualTo(Plan.builder().unfreshOrphan(2).build());
            assertThat(plan.extraInstances()).isEqualTo(2);
        }
    }
}
