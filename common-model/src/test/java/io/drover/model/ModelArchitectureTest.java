package io.drover.model;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.AccessTarget.MethodCallTarget;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.base.DescribedPredicate;
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.DesiredLrp;
import io.drover.model.task.Task;
import jakarta.persistence.EntityManager;
import java.util.Set;
import org.springframework.data.repository.CrudRepository;

/**
 * The model's own rules: it depends on no service and no test fixture, only the lifecycle writes the two LRP entities
 * through JPA, the entities' public methods change nothing, and the read repositories offer no writes.
 */
@AnalyzeClasses(packages = "io.drover.model", importOptions = ImportOption.DoNotIncludeTests.class)
class ModelArchitectureTest {

    static final String LIFECYCLE = "io.drover.model.lrp";
    static final Set<String> ENTITY_WRITES = Set.of("persist", "remove", "merge", "refresh", "lock");

    @ArchTest
    static final ArchRule modelDependsOnNoService = noClasses().that().resideInAPackage("io.drover.model..")
            .should().dependOnClassesThat().resideInAnyPackage("io.drover.receptor..", "io.drover.converger..",
                    "io.drover.auctioneer..", "io.drover.rep..", "io.drover.test..")
            .because("services depend on the model, never the other way round");

    @ArchTest
    static final ArchRule modelPackagesHaveNoCycles = slices().matching("io.drover.model.(*)..")
            .should().beFreeOfCycles();

    @ArchTest
    static final ArchRule onlyTheLifecycleWritesEntities = noClasses().that().resideOutsideOfPackage(LIFECYCLE)
            .should().callMethodWhere(entityManagerWrite())
            .because("actual_lrps and desired_lrps change only through ActualLrpLifecycle and DesiredLrpLifecycle");

    @ArchTest
    static final ArchRule insideTheLifecycleOnlyTheDesiredLifecycleWritesEntities = noClasses()
            .that().resideInAPackage(LIFECYCLE).and().doNotHaveSimpleName("DesiredLrpLifecycle")
            .should().callMethodWhere(entityManagerWrite())
            .because("actual LRPs are written by ActualLrpStore (JDBC), and DesiredLrp is the only entity left");

    @ArchTest
    static final ArchRule entitiesChangeOnlyThroughPackagePrivateVerbs = methods()
            .that().areDeclaredIn(ActualLrp.class).or().areDeclaredIn(DesiredLrp.class).or().areDeclaredIn(Task.class)
            .and().arePublic().and().doNotHaveModifier(JavaModifier.STATIC)
            .should(notSetAnyField())
            .because("a public method of an LRP entity or a task that changed state would be a write path around the "
                    + "lifecycle");

    @ArchTest
    static final ArchRule repositoriesAreReadOnly = noClasses().that().resideInAPackage("io.drover.model..")
            .should().beAssignableTo(CrudRepository.class)
            .because("a CrudRepository's save/delete would be a write path around the lifecycle");

    private static DescribedPredicate<JavaAccess<?>> entityManagerWrite() {
        return DescribedPredicate.describe("EntityManager." + ENTITY_WRITES, access ->
                access.getTarget() instanceof MethodCallTarget call
                        && call.getOwner().isAssignableTo(EntityManager.class)
                        && ENTITY_WRITES.contains(call.getName()));
    }

    private static ArchCondition<JavaMethod> notSetAnyField() {
        return new ArchCondition<>("not set any field") {
            @Override
            public void check(JavaMethod method, ConditionEvents events) {
                for (JavaFieldAccess access : method.getFieldAccesses()) {
                    if (access.getAccessType() == JavaFieldAccess.AccessType.SET) {
                        events.add(SimpleConditionEvent.violated(method, method.getFullName() + " sets "
                                + access.getTarget().getName()));
                    }
                }
            }
        };
    }
}
