package io.sluice.cli;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

import io.sluice.config.Settings;
import io.sluice.processor.ProcessorConfig;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.replay.Replay;
import io.sluice.sink.replay.ReplayRequest;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./sluice replay}: rebuilds ClickHouse rows of an event-time range from Kafka. */
@Command(name = "replay", description = {"Rebuild ClickHouse rows of that event-time range from Kafka.",
        "Idempotent: rows already there stay single, safe to run twice."})
final class ReplayCommand extends CliCommand {
    private final Settings settings;
    private final PrintStream out;
    @Option(names = "--from", required = true, paramLabel = "ISO_TIME", description = "Start of the range, such as 2026-11-22T08:00:00Z.")
    private String from;
    @Option(names = "--to", paramLabel = "ISO_TIME", description = "End of the range (default: a minute from now).")
    private String to;
    @Option(names = "--project", paramLabel = "TOKEN", description = "Only this project (default: every project).")
    private String project;
    @Option(names = "--what", paramLabel = "history|errors|aggregates|all", defaultValue = "all",
            description = "Which tables (default ${DEFAULT-VALUE}).")
    private String what;
    @Option(names = "--dry-run", description = "Count what would be written, write nothing.")
    private boolean dryRun;

    ReplayCommand(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    @Override
    public Integer call() {
        ReplayRequest request = request();
        ProcessorConfig config = ProcessorConfig.from(settings);
        Duration kafkaTimeout = CliKafkaTimeout.from(settings);
        try (var client = ClickHouseClients.create(config.clickHouse())) {
            new Replay(config.kafka(), kafkaTimeout, config.eventTimeHorizon(), client, config.clickHouse(), new ReplayPrinter(out))
                    .run(request);
        }
        return 0;
    }

    private ReplayRequest request() {
        try {
            return new ReplayRequest(Instant.parse(ServerCommands.required("from", from)),
                    to != null ? Instant.parse(to) : Instant.now().plusSeconds(60),
                    project, ReplayRequest.What.parse(what), dryRun);
        } catch (DateTimeParseException e) {
            throw new UsageException("--from and --to are ISO 8601 times such as 2026-11-22T10:00:00Z: " + e.getParsedString());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
