package io.drover.auctioneer;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.drover.model.cell.Cell;
import io.drover.model.cell.CellRegistration;
import io.drover.model.cell.Resources;
import io.drover.model.lrp.ActualLrpKey;
import io.drover.model.read.CellAllocation;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcOperations;
import org.springframework.jdbc.core.simple.JdbcClient;

/** The auctioneer's dependency rules: model only, a pure scheduler, no writes but through the lifecycle. */
@AnalyzeClasses(packages = "io.drover.auctioneer", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule dependsOnlyOnTheModel = noClasses().that().resideInAPackage("io.drover.auctioneer..")
            .should().dependOnClassesThat(resideInAPackage("io.drover..")
                    .and(not(resideInAnyPackage("io.drover.auctioneer..", "io.drover.model.."))))
            .because("services depend on common-model, never on each other");

    @ArchTest
    static final ArchRule schedulerIsPure = classes().that().resideInAPackage("..auctioneer.scheduling..")
            .should().onlyDependOnClassesThat(resideInAnyPackage("java.lang..", "java.util..", "io.drover.auctioneer.scheduling..")
                    .or(belongToAnyOf(ActualLrpKey.class, Cell.class, CellRegistration.class, Resources.class)))
            .because("the placement decision is a pure function over a snapshot: no Spring, no I/O");

    @ArchTest
    static final ArchRule allocationViewIsPure = classes().that().resideInAPackage("..auctioneer.allocation..")
            .and().haveNameNotMatching(".*\\.(Allocations|AllocationConfiguration)(\\$.*)?")
            .should().onlyDependOnClassesThat(resideInAnyPackage("java.lang..", "java.util..",
                    "io.drover.auctioneer.allocation..", "io.drover.auctioneer.scheduling..", "io.drover.model.cell..")
                    .or(belongToAnyOf(CellAllocation.class)))
            .because("the view's arithmetic is tested with tables of cases: no Spring, no I/O");

    @ArchTest
    static final ArchRule writesNothingButThroughTheLifecycle = noClasses().that()
            .resideInAPackage("io.drover.auctioneer..")
            .should().callMethodWhere(target(owner(JavaClass.Predicates.assignableTo(JdbcOperations.class)))
                    .and(target(nameMatching("update|batchUpdate|execute"))))
            .orShould().dependOnClassesThat(belongToAnyOf(JdbcClient.class, NamedParameterJdbcOperations.class))
            .because("actual_lrps and desired_lrps change only through the lifecycles in common-model");

    @ArchTest
    static final ArchRule featurePackagesHaveNoCycles = slices().matching("io.drover.auctioneer.(*)..")
            .should().beFreeOfCycles();
}
