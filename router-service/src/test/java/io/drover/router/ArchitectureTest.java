package io.drover.router;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.drover.model.lrp.ActualLrpState;
import io.drover.model.read.RouteRows;
import io.drover.model.read.TransactionSnapshot;

/** The router's dependency rules: the model only (its read model, never SQL of its own), a pure table. */
@AnalyzeClasses(packages = "io.drover.router", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule dependsOnlyOnTheModel = noClasses().that().resideInAPackage("io.drover.router..")
            .should().dependOnClassesThat(resideInAPackage("io.drover..")
                    .and(not(resideInAnyPackage("io.drover.router..", "io.drover.model.."))))
            .because("services depend on common-model, never on each other");

    @ArchTest
    static final ArchRule readsOnlyThroughTheReadModel = noClasses().that().resideInAPackage("io.drover.router..")
            .should().dependOnClassesThat(resideInAnyPackage("java.sql..", "javax.sql..", "org.springframework.jdbc.."))
            .because("the router reads through the model's read model (RouteRows), as every service does");

    @ArchTest
    static final ArchRule theTableIsPure = classes().that().resideInAPackage("..router.table..")
            .should().onlyDependOnClassesThat(resideInAnyPackage("java.lang..", "java.util..",
                    "io.drover.router.table..", "io.drover.model.route..")
                    .or(belongToAnyOf(ActualLrpState.class, RouteRows.class, TransactionSnapshot.class)))
            .because("what the table holds after a change is tested with tables of cases: no Spring, no I/O");

    @ArchTest
    static final ArchRule featurePackagesHaveNoCycles = slices().matching("io.drover.router.(*)..")
            .should().beFreeOfCycles();
}
