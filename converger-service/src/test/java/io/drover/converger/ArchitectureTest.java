package io.drover.converger;

import static com.tngtech.archunit.core.domain.JavaCall.Predicates.target;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.assignableTo;
import static com.tngtech.archunit.core.domain.properties.HasName.Predicates.nameMatching;
import static com.tngtech.archunit.core.domain.properties.HasOwner.Predicates.With.owner;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.DesiredLrpSnapshot;
import org.springframework.jdbc.core.JdbcTemplate;

/** The converger's dependency rules: built on the model only, writes through the lifecycles, decisions kept pure. */
@AnalyzeClasses(packages = "io.drover.converger", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule dependsOnlyOnTheModelAndItsLibraries = classes().that()
            .resideInAPackage("io.drover.converger..").should().onlyDependOnClassesThat().resideInAnyPackage("io.drover.converger..", "io.drover.model..",
                    "java..", "javax.sql..", "org.springframework..", "org.slf4j..", "io.micrometer..",
                    "org.apache.kafka..");

    @ArchTest
    static final ArchRule thePlanIsPure = classes().that().resideInAPackage("io.drover.converger.plan..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.drover.converger.plan..", "java..",
                    "io.drover.model.lrp..", "io.drover.model.task..", "io.drover.model.time..");

    @ArchTest
    static final ArchRule theScalingDecisionIsPure = classes().that()
            .haveFullyQualifiedName("io.drover.converger.autoscale.Scaling").or()
            .haveNameMatching("io\\.drover\\.converger\\.autoscale\\.Scaling\\$.*")
            .should().onlyDependOnClassesThat().resideInAnyPackage("io.drover.converger.autoscale..", "java..",
                    "io.drover.model.lrp..", "io.drover.model.autoscale..");

    @ArchTest
    static final ArchRule neverHoldsTheRecordsTheLifecyclesChange = noClasses().that()
            .resideInAPackage("io.drover.converger..").should().dependOnClassesThat()
            .areAssignableTo(ActualLrp.class).orShould().dependOnClassesThat().areAssignableTo(DesiredLrpSnapshot.class);

    @ArchTest
    static final ArchRule onlyGarbageCollectionWritesWithPlainJdbc = noClasses().that()
            .resideOutsideOfPackage("io.drover.converger.gc..").should()
            .callMethodWhere(target(owner(assignableTo(JdbcTemplate.class)))
                    .and(target(nameMatching("update|batchUpdate|execute"))))
            .because("actual_lrps and desired_lrps are written only through the lifecycles");

    @ArchTest
    static final ArchRule packagesAreFreeOfCycles = SlicesRuleDefinition.slices()
            .matching("io.drover.converger.(*)..").should().beFreeOfCycles();
}
