package io.drover.verify;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;

/**
 * The checker's rules: the checks are pure functions of a recorded history (they reach no cluster, no network, no
 * clock), and the checker drives Drover from outside, through its public API and the local cluster's controls, never
 * through a service's insides (the rep's admin server aside, which is how drains are asked for today).
 */
@AnalyzeClasses(packages = "io.drover.verify", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule checksArePureFunctionsOfTheHistory = classes().that().resideInAPackage("io.drover.verify.check..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.drover.verify.check..",
                    "io.drover.verify.history..", "io.drover.model.json..", "java.lang..", "java.util..", "java.time..",
                    "tools.jackson..");

    @ArchTest
    static final ArchRule driveDroverFromOutside = noClasses().that().resideInAPackage("io.drover.verify..")
            .should().dependOnClassesThat().resideInAnyPackage("io.drover.receptor..", "io.drover.converger..",
                    "io.drover.auctioneer..", "io.drover.model.lrp..", "io.drover.model.task..",
                    "io.drover.model.deployment..");

    @ArchTest
    static final ArchRule packagesAreFreeOfCycles = SlicesRuleDefinition.slices()
            .matching("io.drover.verify.(*)..").should().beFreeOfCycles();
}
