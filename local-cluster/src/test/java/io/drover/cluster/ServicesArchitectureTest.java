package io.drover.cluster;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * Rules that span every service, so they live where every service is on the classpath. Queries belong to the model
 * (its read model, lifecycles, presence, domains and locks), like writes do: a service that writes SQL of its own grows
 * a second, diverging definition of what "live cell" or "what a cell carries" means.
 */
@AnalyzeClasses(packages = { "io.drover.receptor", "io.drover.converger", "io.drover.rep", "io.drover.auctioneer",
        "io.drover.router" },
        importOptions = ImportOption.DoNotIncludeTests.class)
class ServicesArchitectureTest {

    /**
     * JDBC and Spring's JdbcTemplate (the only way to the database on the classpath). SQL exceptions stay allowed:
     * recognising "the database is unreachable" is not querying it.
     */
    static final DescribedPredicate<JavaClass> RAW_SQL = DescribedPredicate.describe("JDBC or JdbcTemplate", c -> {
        String name = c.getName();
        boolean jdbc = name.startsWith("java.sql.") || name.startsWith("javax.sql.")
                || name.startsWith("org.springframework.jdbc.");
        return jdbc && !c.isAssignableTo(Throwable.class);
    });

    @ArchTest
    static final ArchRule servicesWriteNoSqlOfTheirOwn = noClasses()
            .that().resideInAnyPackage("io.drover.receptor..", "io.drover.converger..", "io.drover.rep..",
                    "io.drover.auctioneer..", "io.drover.router..")
            .should().dependOnClassesThat(RAW_SQL)
            .because("queries belong to the model's read model (io.drover.model.read), as writes belong to its "
                    + "lifecycles");
}
