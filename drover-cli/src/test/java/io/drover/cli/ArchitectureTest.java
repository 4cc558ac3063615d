package io.drover.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The CLI starts fast because it carries no Spring, no Drover service, no Jackson and not the JDK's HTTP client (each
 * a few hundred milliseconds of a command's start); its feature packages form no cycles.
 */
@AnalyzeClasses(packages = "io.drover.cli", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

    @ArchTest
    static final ArchRule noSpringNoServices = noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "org.springframework..", "io.drover.model..", "io.drover.receptor..", "io.drover.rep..",
            "io.drover.cluster..");

    @ArchTest
    static final ArchRule nothingHeavyOnTheStartPath = noClasses().should().dependOnClassesThat().resideInAnyPackage(
            "tools.jackson..", "com.fasterxml.jackson..", "java.net.http..")
            .because("building a Jackson mapper costs ~200 ms, the JDK's HttpClient sets up TLS for ~250 ms");

    @ArchTest
    static final ArchRule featuresAreFreeOfCycles = slices().matching("io.drover.cli.(**)").should().beFreeOfCycles();
}
