package io.sluice.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Map;

import com.clickhouse.client.api.Client;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.projects.Project;
import io.sluice.projects.ProjectAdmin;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.ClickHouseSettings;
import io.sluice.sink.DataDeletion;
import io.sluice.sink.RetentionChange;
import io.sluice.sink.SinkTables;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./sluice projects delete-user}: the actions of {@code projects} that remove stored data, so
 * they need ClickHouse as well as Kafka. Each is logged (who, what, when) before and after.
 */
final class ProjectDataCommands {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ProjectDataCommands() {
    }

    /** The actions, for {@code projects}. */
    static Object[] actions(Settings settings, PrintStream out) {
        return new Object[] {new DeleteUser(settings, out), new DeleteProject(settings, out), new SetRetention(settings, out)};
    }

    /** What every action here shares: Kafka, ClickHouse, and who asks. */
    private abstract static class DataAction extends CliCommand {
        final Settings settings;
        final PrintStream out;
        @Parameters(index = "0", arity = "1", paramLabel = "TOKEN", description = "The project's token.")
        String token;
        @Option(names = "--by", paramLabel = "WHO", description = "Who asks, for the audit log (default: the OS user).")
        String by;
        @Option(names = "--json", description = "Print one JSON object.")
        boolean json;
        @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT", description = "Kafka (default $SLUICE_KAFKA_BOOTSTRAP_SERVERS).")
        String bootstrapServers;
        @Option(names = "--clickhouse-url", paramLabel = "URL", description = "ClickHouse (default $SLUICE_CLICKHOUSE_URL).")
        String clickHouseUrl;

        DataAction(Settings settings, PrintStream out) {
            this.settings = settings;
            this.out = out;
        }

        String who() {
            return by != null && !by.isBlank() ? by.strip() : System.getProperty("user.name", "unknown");
        }

        /** What an action does with the registry, the project as it holds it (it must exist), and ClickHouse. */
        interface Work {
            void run(ProjectAdmin admin, Project project, ClickHouseSettings clickHouse, Client client, SinkTables tables);
        }

        void use(Work work) {
            Duration timeout = CliKafkaTimeout.from(settings);
            KafkaSettings kafka = CommandLineSettings.kafka(settings, bootstrapServers);
            ClickHouseSettings clickHouse = CommandLineSettings.clickHouse(settings, clickHouseUrl);
            try (ProjectAdmin admin = new ProjectAdmin(kafka, timeout);
                 Client client = ClickHouseClients.create(clickHouse)) {
                work.run(admin, admin.get(token), clickHouse, client, SinkTables.of(kafka.topics(), clickHouse.database()));
            }
        }

        /** Logs the change before and after, with who asked and the rows it touched (never a key). */
        Map<String, Long> audited(String what, Project project, java.util.function.Supplier<Map<String, Long>> change) {
            return AuditLog.change(what, project.token(), who(), change);
        }

        void printRemoved(String what, Project project, Map<String, Long> removed) {
            print("deleted", what, project, "rows_removed", "rows removed", removed);
        }

        /** {@code --json}: {"project", verb: what, "by", rowsField: {table: rows}}; else a line, then a line per table. */
        void print(String verb, String what, Project project, String rowsField, String rowsText, Map<String, Long> perTable) {
            if (json) {
                ObjectNode node = JSON.createObjectNode().put("project", project.token()).put(verb, what).put("by", who());
                ObjectNode rows = node.putObject(rowsField);
                perTable.forEach(rows::put);
                out.println(node);
            } else {
                out.println(verb + " " + what + " of " + project.name() + " (" + project.token() + ")");
                perTable.forEach((table, rows) -> out.printf("  %-28s %d %s%n", table, rows, rowsText));
            }
        }

        static DataDeletion deletion(ClickHouseSettings clickHouse, Client client, SinkTables tables) {
            return new DataDeletion(client, clickHouse.database(), tables);
        }
    }

    @Command(name = "delete-user", description = {"Remove every history and error row (payload included) of one user of",
            "the project, and keep them from being stored again from Kafka (replay, recompute).",
            "Aggregates keep their counts (no personal data). Returns when the rows are gone."})
    private static final class DeleteUser extends DataAction {
        @Option(names = "--user", required = true, paramLabel = "ID", description = "The user's id (user_id as stored).")
        String user;

        DeleteUser(Settings settings, PrintStream out) {
            super(settings, out);
        }

        @Override
        public Integer call() {
            if (user == null || user.isEmpty()) {
                throw new UsageException("--user needs the user's id");
            }
            String what = "user " + user;
            use((admin, project, clickHouse, client, tables) -> printRemoved(what, project, audited("deleting " + what, project,
                    () -> deletion(clickHouse, client, tables).deleteUser(project.token(), user, who()))));
            return 0;
        }
    }

    @Command(name = "delete", description = {"Delete the project: every gateway refuses its keys and DSN keys at once,",
            "every row of it is removed from every table and never stored again from Kafka,",
            "and its token is never used again. Returns when the rows are gone."})
    private static final class DeleteProject extends DataAction {
        DeleteProject(Settings settings, PrintStream out) {
            super(settings, out);
        }

        @Override
        public Integer call() {
            use((admin, project, clickHouse, client, tables) -> printRemoved("the project", project, audited("deleting the project",
                    project, () -> {
                        admin.delete(project.token()); // first: nothing more comes in while the rows go
                        return deletion(clickHouse, client, tables).deleteProject(project.token(), who());
                    })));
            return 0;
        }
    }

    @Command(name = "set-retention", description = {"Keep the project's rows for N days in every table (at most",
            "SLUICE_CLICKHOUSE_RETENTION_DAYS): new rows at once, stored rows in ClickHouse's next merges."})
    private static final class SetRetention extends DataAction {
        @Option(names = "--days", required = true, paramLabel = "N", description = "Days, 1 to SLUICE_CLICKHOUSE_RETENTION_DAYS.")
        int days;

        SetRetention(Settings settings, PrintStream out) {
            super(settings, out);
        }

        @Override
        public Integer call() {
            String what = days + " days";
            use((admin, project, clickHouse, client, tables) -> {
                RetentionChange change = new RetentionChange(client, clickHouse.database(), clickHouse.retentionDays(), tables);
                try {
                    print("retention", what, project, "rows_changed", "stored rows given it",
                            audited("setting the retention to " + what, project, () -> change.set(project.token(), days, who())));
                } catch (IllegalArgumentException e) {
                    throw new UsageException(e.getMessage());
                }
            });
            return 0;
        }
    }
}
