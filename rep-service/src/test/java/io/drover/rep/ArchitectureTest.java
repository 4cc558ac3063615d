package io.drover.rep;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import io.drover.model.lrp.ActualLrp;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/** The rep's dependency rules: model only, writes only through the lifecycle, pure decisions, executors apart. */
class ArchitectureTest {

    private static final JavaClasses REP = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.drover.rep");

    @Test
    void dependsOnTheModelAndNoOtherService() {
        check(noClasses().should().dependOnClassesThat().resideInAnyPackage("io.drover.receptor..",
                "io.drover.converger..", "io.drover.auctioneer..", "io.drover.test.."));
    }

    @Test
    void writesActualLrpsOnlyThroughTheLifecycle() {
        check(noClasses().should().callMethodWhere(com.tngtech.archunit.core.domain.JavaCall.Predicates.target(
                com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner(
                        com.tngtech.archunit.base.DescribedPredicate.describe("ActualLrp",
                                c -> c.isEquivalentTo(ActualLrp.class))))));
        check(noClasses().should().callMethodWhere(com.tngtech.archunit.core.domain.JavaCall.Predicates.target(
                com.tngtech.archunit.base.DescribedPredicate.describe("JdbcTemplate writes",
                        t -> t.getOwner().isAssignableTo(JdbcTemplate.class)
                                && (t.getName().startsWith("update") || t.getName().startsWith("batchUpdate")
                                        || t.getName().equals("execute"))))));
    }

    @Test
    void decisionsArePure() {
        check(noClasses().that().haveSimpleName("SyncPlan").or().haveSimpleName("SyncAction").should().dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "org.apache.kafka..", "java.sql.."));
        check(noClasses().that().haveSimpleName("PlacementChecks").should().dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "org.apache.kafka..", "java.sql.."));
    }

    @Test
    void executorsKnowNothingOfTheRepAroundThem() {
        check(noClasses().that().resideInAPackage("io.drover.rep.executor..").should().dependOnClassesThat()
                .resideInAnyPackage("io.drover.rep.agent..", "io.drover.rep.intake..", "io.drover.rep.sync..",
                        "io.drover.rep.records..", "io.drover.rep.evacuation..", "org.springframework.jdbc..",
                        "org.springframework.kafka..", "org.apache.kafka.."));
    }

    @Test
    void packagesFollowSpecEightWithoutCycles() {
        check(com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices().matching("io.drover.rep.(*)..")
                .should().beFreeOfCycles());
    }

    private static void check(ArchRule rule) {
        rule.check(REP);
    }
}
