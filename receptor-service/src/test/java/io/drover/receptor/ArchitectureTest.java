package io.drover.receptor;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.DesiredLrpSnapshot;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * The receptor depends only on the model, never writes LRP state except through the lifecycles, and its feature
 * packages do not form cycles.
 */
@AnalyzeClasses(packages = "io.drover.receptor", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule dependsOnlyOnTheModel = noClasses().that().resideInAPackage("io.drover.receptor..")
            .should().dependOnClassesThat().resideInAnyPackage("io.drover.converger..", "io.drover.auctioneer..",
                    "io.drover.rep..");

    @ArchTest
    static final ArchRule writesNothingWithJdbc = noClasses().that().resideInAPackage("io.drover.receptor..")
            .should().callMethodWhere(target(owner(assignableTo(JdbcTemplate.class)
                    .or(assignableTo(NamedParameterJdbcTemplate.class))))
                    .and(target(nameMatching("update|batchUpdate|execute"))))
            .because("actual_lrps and desired_lrps are written only by the model's lifecycles (SPEC 3.3)");

    @ArchTest
    static final ArchRule neverDrivesTheStateMachineItself = noClasses().that().resideInAPackage("io.drover.receptor..")
            .should().callMethodWhere(target(owner(assignableTo(ActualLrp.class)
                    .or(assignableTo(DesiredLrpSnapshot.class))))
                    .and(target(nameMatching("place|failPlacement|claim|start|crash|unclaim|create|updatedBy"
                            + "|redefinedBy"))))
            .because("only ActualLrpLifecycle and DesiredLrpLifecycle drive the state machines");

    @ArchTest
    static final ArchRule featuresAreFreeOfCycles = slices().matching("io.drover.receptor.(**)").should()
            .beFreeOfCycles();
}
