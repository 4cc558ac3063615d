package io.drover.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.drover.test.WithDroverInfrastructure;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The code and the schema agree: every SQL statement written in the model's classes (each string constant that is a
 * whole statement, the stores', the read model's, the relay's, inline or in a field) is parsed and analysed by
 * PostgreSQL against the schema Flyway built, without being run. A column or table a migration renamed, dropped or
 * retyped so that a statement no longer fits fails the build here, whether or not a test happens to run that
 * statement. (Hibernate's {@code ddl-auto=validate} did this for the one entity there was; the lifecycle ITs run the
 * statements with real rows.) A statement is checked without its values, so it names the types PostgreSQL cannot infer
 * from their place, as the model's {@code unnest(?::varchar[], ?::int[])} do.
 */
@SpringBootTest
@WithDroverInfrastructure
class SchemaIT {

    /** A whole statement: what JdbcTemplate is handed. Fragments (column lists, a WHERE clause) do not match. */
    private static final Pattern STATEMENT = Pattern.compile(
            "(?is)\\s*(SELECT|INSERT\\s+INTO|UPDATE|DELETE\\s+FROM|WITH)\\s.+");
    /** A template that {@code String.formatted} completes at run time (a table name, a column list). */
    private static final Pattern TEMPLATE = Pattern.compile("%(\\d+\\$)?s");

    @Autowired
    DataSource dataSource;

    @Test
    void everyStatementOfTheModelFitsTheSchemaFlywayBuilt() throws Exception {
        Map<String, List<String>> statements = statementsOfTheModel();
        assertThat(statements).as("the statements found: the stores' at least").containsKeys(
                "io.drover.model.lrp.DesiredLrpStore", "io.drover.model.lrp.ActualLrpStore",
                "io.drover.model.deployment.DeploymentStore", "io.drover.model.task.TaskStore",
                "io.drover.model.read.DesiredLrpRows", "io.drover.model.messaging.OutboxRelay");

        List<String> misfits = new ArrayList<>();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            statements.forEach((owner, sqls) -> sqls.forEach(sql -> {
                String error = describe(connection, sql);
                if (error != null) {
                    misfits.add(owner + ": " + error + "\n    " + sql.replaceAll("\\s+", " "));
                }
            }));
            connection.rollback();
        }
        assertThat(misfits).as("statements PostgreSQL rejects").isEmpty();
    }

    /**
     * Has PostgreSQL parse and analyse {@code sql} (the driver's describe round trip: parameter and result types),
     * executing nothing; the error, or null when it fits.
     */
    private static String describe(Connection connection, String sql) {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.getParameterMetaData();
            return null;
        } catch (SQLException e) {
            try {
                connection.rollback(); // a failed statement aborts the transaction; the next one needs a fresh one
            } catch (SQLException ignored) {
                // the next describe reports whatever is wrong with the connection
            }
            return e.getMessage();
        }
    }

    /** The whole statements among each main class's string constants, by class (nested classes with their owner). */
    private static Map<String, List<String>> statementsOfTheModel() throws IOException {
        Map<String, List<String>> byOwner = new TreeMap<>();
        for (JavaClass c : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.drover.model")) {
            if (c.getSource().isEmpty()) {
                continue;
            }
            try (InputStream in = c.getSource().get().getUri().toURL().openStream()) {
                for (String constant : ConstantPool.strings(in)) {
                    // character 1 marks where a string concatenated at run time takes its arguments: not a whole one
                    if (STATEMENT.matcher(constant).matches() && constant.indexOf('\u0001') < 0
                            && !TEMPLATE.matcher(constant).find()) {
                        byOwner.computeIfAbsent(c.getName().replaceAll("\\$.*", ""), k -> new ArrayList<>())
                                .add(constant);
                    }
                }
            }
        }
        return byOwner;
    }

    /** Reads the string constants of a class file (JVMS 4.4): all a class's literal SQL, folded constants included. */
    private static final class ConstantPool {

        static List<String> strings(InputStream classFile) throws IOException {
            DataInputStream in = new DataInputStream(classFile);
            in.readInt(); // magic
            in.readUnsignedShort(); // minor
            in.readUnsignedShort(); // major
            int count = in.readUnsignedShort();
            Map<Integer, String> utf8 = new HashMap<>();
            List<Integer> strings = new ArrayList<>();
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8.put(i, in.readUTF());
                    case 8 -> strings.add(in.readUnsignedShort());
                    case 7, 16, 19, 20 -> in.readUnsignedShort();
                    case 15 -> in.skipBytes(3);
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
                    case 5, 6 -> {
                        in.skipBytes(8);
                        i++; // a long or double takes two entries
                    }
                    default -> throw new IOException("unknown constant pool tag " + tag + " at " + i);
                }
            }
            return strings.stream().map(utf8::get).toList();
        }
    }
}
