package io.drover.model;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
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
import io.drover.model.lrp.ActualLrp;
import io.drover.model.lrp.DesiredLrpSnapshot;
import io.drover.model.task.Task;
import java.util.Set;

/**
 * The model's own rules: it depends on no service and no test fixture, only the desired LRP's lifecycle uses its
 * store, and the domain objects' public methods change nothing.
 */
@AnalyzeClasses(packages = "io.drover.model", importOptions = ImportOption.DoNotIncludeTests.class)
class ModelArchitectureTest {

    static final String LIFECYCLE = "io.drover.model.lrp";

    @ArchTest
    static final ArchRule modelDependsOnNoService = noClasses().that().resideInAPackage("io.drover.model..")
            .should().dependOnClassesThat().resideInAnyPackage("io.drover.receptor..", "io.drover.converger..",
                    "io.drover.auctioneer..", "io.drover.rep..", "io.drover.test..")
            .because("services depend on the model, never the other way round");

    @ArchTest
    static final ArchRule modelPackagesHaveNoCycles = slices().matching("io.drover.model.(*)..")
            .should().beFreeOfCycles();

    @ArchTest
    static final ArchRule onlyTheDesiredLifecycleUsesItsStore = noClasses()
            .that().doNotHaveSimpleName("DesiredLrpLifecycle").and().doNotHaveSimpleName("LifecycleFactory")
            .and().doNotHaveSimpleName("DesiredLrpStore")
            .should().dependOnClassesThat().haveFullyQualifiedName("io.drover.model.lrp.DesiredLrpStore")
            .because("desired_lrps change only through DesiredLrpLifecycle, which builds it (LifecycleFactory)");

    @ArchTest
    static final ArchRule domainObjectsChangeOnlyThroughPackagePrivateVerbs = methods()
            .that().areDeclaredIn(ActualLrp.class).or().areDeclaredIn(DesiredLrpSnapshot.class)
            .or().areDeclaredIn(Task.class)
            .and().arePublic().and().doNotHaveModifier(JavaModifier.STATIC)
            .should(notSetAnyField())
            .because("a public method of an LRP or a task that changed state would be a write path around the "
                    + "lifecycle");

    /** The lifecycle verbs of one row (SPEC 3.3), which only the slot may call. */
    static final Set<String> ROW_VERBS = Set.of("place", "failPlacement", "claim", "start", "crash", "unclaim",
            "evacuate", "roll", "remove", "requestStop");

    @ArchTest
    static final ArchRule onlyTheSlotCallsTheVerbsOfARow = noClasses()
            .that().doNotHaveFullyQualifiedName(ActualLrp.class.getName())
            .and().doNotHaveFullyQualifiedName(LIFECYCLE + ".InstanceSlot")
            .should().callMethodWhere(DescribedPredicate.describe("a verb of ActualLrp " + ROW_VERBS, access ->
                    access.getTarget().getOwner().isEquivalentTo(ActualLrp.class)
                            && ROW_VERBS.contains(access.getTarget().getName())))
            .because("an instance slot (record and twin) is the aggregate of SPEC 3: every transition of its rows is "
                    + "decided by InstanceSlot, ActualLrp and Transitions, never by the loop around them");

    @ArchTest
    static final ArchRule theTransitionTableIsConsultedOnlyByTheStateMachines = noClasses()
            .that().resideInAPackage("io.drover.model..")
            .and().doNotHaveFullyQualifiedName(ActualLrp.class.getName())
            .and().doNotHaveFullyQualifiedName(LIFECYCLE + ".Transitions")
            .and().doNotHaveFullyQualifiedName(Task.class.getName())
            .and().doNotHaveFullyQualifiedName("io.drover.model.task.TaskTransitions")
            .should().callMethodWhere(DescribedPredicate.describe("a method of Transitions or TaskTransitions",
                    access -> access.getTarget().getOwner().getSimpleName().endsWith("Transitions")))
            .because("a transition decided from the table outside ActualLrp or Task would be a second state machine");

    @ArchTest
    static final ArchRule onlyTheOperationsLoopDrivesSlots = noClasses()
            .that().doNotHaveFullyQualifiedName(LIFECYCLE + ".ActualLrpOperations")
            .and().doNotHaveFullyQualifiedName(LIFECYCLE + ".Slots")
            .and().doNotHaveFullyQualifiedName(LIFECYCLE + ".InstanceSlot")
            .should().accessClassesThat().haveFullyQualifiedName(LIFECYCLE + ".InstanceSlot")
            .because("ActualLrpOperations is the one loop that loads slots (Slots), calls a verb and leaves the "
                    + "writes to the recorder");

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
