package io.sluice.cli;

import java.io.PrintStream;
import java.time.Instant;
import java.time.format.DateTimeParseException;

import io.sluice.config.Settings;
import io.sluice.processor.ProcessorConfig;
import io.sluice.sink.ClickHouseClients;
import io.sluice.sink.replay.Replay;
import io.sluice.sink.replay.ReplayRequest;

/** {@code ./sluice replay}: rebuilds ClickHouse rows of an event-time range from Kafka. */
final class ReplayCommand implements Command {
    private final Settings settings;
    private final PrintStream out;

    ReplayCommand(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    @Override
    public int run(Args args) {
        ReplayRequest request = request(args);
        ProcessorConfig config = ProcessorConfig.from(settings);
        try (var client = ClickHouseClients.create(config.clickHouse())) {
            new Replay(config.kafka(), config.eventTimeHorizon(), client, config.clickHouse(), new ReplayPrinter(out))
                    .run(request);
        }
        return 0;
    }

    private static ReplayRequest request(Args args) {
        try {
            return new ReplayRequest(Instant.parse(args.required("from")),
                    args.options().containsKey("to") ? Instant.parse(args.option("to", "")) : Instant.now().plusSeconds(60),
                    args.option("project", null), ReplayRequest.What.parse(args.option("what", "all")), args.flag("dry-run"));
        } catch (DateTimeParseException e) {
            throw new Args.UsageException("--from and --to are ISO 8601 times such as 2026-11-22T10:00:00Z: " + e.getParsedString());
        } catch (IllegalArgumentException e) {
            throw new Args.UsageException(e.getMessage());
        }
    }
}
