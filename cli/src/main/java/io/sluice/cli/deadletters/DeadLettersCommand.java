package io.sluice.cli.deadletters;

import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.kafka.common.header.Header;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sluice.cli.CliCommand;
import io.sluice.cli.CliKafkaTimeout;
import io.sluice.cli.CommandLineSettings;
import io.sluice.cli.UsageException;
import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./sluice dead-letters list|show|replay}: what is in the dead-letter topic, one record in full, and sending records back. */
@Command(name = "dead-letters", description = {"What the processor and the sink could not use: list, show one, replay after a fix.",
        "Reads the dead-letter topic ($SLUICE_TOPIC_DEAD_LETTERS) without a consumer group: looking changes nothing."})
public final class DeadLettersCommand extends CliCommand {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern ADDRESS = Pattern.compile("(\\d+)@(\\d+)");

    @Override
    public Integer call() {
        throw new UsageException("dead-letters needs an action: list, show, replay");
    }

    public static CommandLine create(Settings settings, PrintStream out) {
        return new CommandLine(new DeadLettersCommand()).addSubcommand(new ListAll(settings, out))
                .addSubcommand(new Show(settings, out)).addSubcommand(new Replay(settings, out));
    }

    /** What every action shares: Kafka, and how far back. */
    private abstract static class Action extends CliCommand {
        final Settings settings;
        final PrintStream out;
        @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT", description = "Kafka (default $SLUICE_KAFKA_BOOTSTRAP_SERVERS).")
        String bootstrapServers;

        Action(Settings settings, PrintStream out) {
            this.settings = settings;
            this.out = out;
        }

        KafkaSettings kafka() {
            return CommandLineSettings.kafka(settings, bootstrapServers);
        }

        Duration timeout() {
            return CliKafkaTimeout.from(settings);
        }

        /** A duration back from now (24h) or an ISO time (2026-11-22T08:00:00Z). */
        static Instant since(String text) {
            try {
                return Instant.now().minus(Settings.parseDuration(text));
            } catch (IllegalArgumentException notADuration) {
                try {
                    return Instant.parse(text);
                } catch (DateTimeParseException e) {
                    throw new UsageException("--since and --until are a duration such as 1h or 7d, or an ISO time such as "
                            + "2026-11-22T08:00:00Z, not " + text);
                }
            }
        }
    }

    @Command(name = "list", description = "Dead letters counted per reason and project (newest address of each, for show).")
    static final class ListAll extends Action {
        @Option(names = "--since", paramLabel = "DURATION|ISO_TIME", defaultValue = "24h", description = "How far back (default ${DEFAULT-VALUE}).")
        String since;
        @Option(names = "--until", paramLabel = "DURATION|ISO_TIME", description = "Only those written before: a duration back from now, or an ISO time (default: now).")
        String until;
        @Option(names = "--json", description = "Print one JSON object.")
        boolean json;

        ListAll(Settings settings, PrintStream out) {
            super(settings, out);
        }

        @Override
        public Integer call() {
            Instant from = since(since);
            Instant to = until == null ? null : since(until);
            Map<List<String>, long[]> groups = new LinkedHashMap<>();
            Map<List<String>, String> newest = new LinkedHashMap<>();
            long[] total = new long[1];
            String topic;
            try (DeadLetterReader reader = new DeadLetterReader(kafka(), timeout())) {
                topic = reader.topic();
                reader.readSince(from, letter -> {
                    if (to != null && !letter.time().isBefore(to)) {
                        return;
                    }
                    List<String> group = List.of(letter.reasonKind(), letter.project() == null ? "?" : SafeText.of(letter.project(), 64),
                            letter.source() == null ? "?" : letter.source().topic());
                    groups.computeIfAbsent(group, g -> new long[1])[0]++;
                    newest.put(group, letter.address());
                    total[0]++;
                });
            }
            List<List<String>> order = groups.keySet().stream()
                    .sorted(Comparator.comparingLong((List<String> g) -> -groups.get(g)[0])).toList();
            if (json) {
                ObjectNode result = JSON.createObjectNode().put("topic", topic).put("since", from.toString())
                        .put("until", to == null ? null : to.toString()).put("total", total[0]);
                ArrayNode all = result.putArray("groups");
                for (List<String> group : order) {
                    all.addObject().put("count", groups.get(group)[0]).put("reason", group.get(0)).put("project", group.get(1))
                            .put("source_topic", group.get(2)).put("newest", newest.get(group));
                }
                out.println(result);
                return 0;
            }
            out.println(total[0] + " dead letters in " + topic + " since " + from + (to == null ? "" : " until " + to));
            if (total[0] > 0) {
                out.printf("%7s  %-24s %-24s %-10s %s%n", "COUNT", "PROJECT", "FROM TOPIC", "NEWEST", "REASON");
                for (List<String> group : order) {
                    out.printf("%7d  %-24s %-24s %-10s %s%n", groups.get(group)[0], group.get(1), group.get(2), newest.get(group), group.get(0));
                }
                out.println("./sluice dead-letters show PARTITION@OFFSET shows one; ./sluice dead-letters replay sends them back after a fix.");
            }
            return 0;
        }
    }

    @Command(name = "show", description = "One dead letter in full: reason, source, headers, key and value (control characters escaped).")
    static final class Show extends Action {
        @Parameters(index = "0", arity = "1", paramLabel = "PARTITION@OFFSET", description = "Such as 0@17 (list prints them).")
        String address;
        @Option(names = "--max-chars", paramLabel = "N", defaultValue = "4096", description = "Show at most N characters of the value (default ${DEFAULT-VALUE}).")
        int maxChars;

        Show(Settings settings, PrintStream out) {
            super(settings, out);
        }

        @Override
        public Integer call() {
            Matcher matcher = ADDRESS.matcher(address);
            if (!matcher.matches()) {
                throw new UsageException("a dead letter is PARTITION@OFFSET, such as 0@17, not " + SafeText.of(address, 64));
            }
            int partition = Integer.parseInt(matcher.group(1));
            long offset = Long.parseLong(matcher.group(2));
            try (DeadLetterReader reader = new DeadLetterReader(kafka(), timeout())) {
                DeadLetter letter = reader.at(partition, offset).orElseThrow(() -> new IllegalStateException(
                        "no dead letter at " + address + " in " + reader.topic() + " (gone with retention, or never written)"));
                out.println("dead letter " + letter.address() + " of " + reader.topic() + ", written " + letter.time());
                out.println("  reason:  " + SafeText.of(letter.reason(), 8192));
                out.println("  source:  " + (letter.source() == null ? "(not recorded)" : letter.source()));
                out.println("  project: " + SafeText.of(letter.project(), 256));
                out.println("  event:   " + SafeText.of(letter.eventId(), 256));
                out.println("  headers:");
                for (Header header : letter.headers()) {
                    out.println("    " + SafeText.of(header.key(), 128) + ": " + SafeText.of(header.value(), 1024));
                }
                out.println("  key:     " + SafeText.of(letter.key(), 1024));
                out.println("  value:   " + (letter.valueOmitted() != null ? "(left out: " + SafeText.of(letter.valueOmitted(), 512) + ")"
                        : (letter.value() == null ? "(none)" : letter.value().length + " bytes")));
                if (letter.value() != null) {
                    out.println(SafeText.of(letter.value(), Math.max(1, maxChars)));
                }
            }
            return 0;
        }
    }

    @Command(name = "replay", description = {"Send dead letters back where they came from, after the cause is fixed, with progress.",
            "Idempotent: an event replayed twice counts once (the processor drops event ids it has seen within the horizon,",
            "the tables keep one row per key)."})
    static final class Replay extends Action {
        @Option(names = "--reason", paramLabel = "TEXT", description = "Only those whose reason contains this text.")
        String reason;
        @Option(names = "--project", paramLabel = "TOKEN", description = "Only this project's.")
        String project;
        @Option(names = "--since", paramLabel = "DURATION|ISO_TIME", defaultValue = "24h", description = "How far back (default ${DEFAULT-VALUE}).")
        String since;
        @Option(names = "--dry-run", description = "Count what would be sent, send nothing.")
        boolean dryRun;

        Replay(Settings settings, PrintStream out) {
            super(settings, out);
        }

        @Override
        public Integer call() throws Exception {
            Instant from = since(since);
            DeadLetterReplay.Summary summary = new DeadLetterReplay(kafka(), timeout(), out)
                    .run(from, new DeadLetterReplay.Filter(reason, project), dryRun);
            StringBuilder perTopic = new StringBuilder();
            summary.sent().forEach((topic, count) -> perTopic.append(perTopic.isEmpty() ? "" : ", ").append(topic).append(": ").append(count));
            out.println((dryRun ? "would send " : "sent ") + summary.sentTotal() + " back" + (perTopic.isEmpty() ? "" : " (" + perTopic + ")")
                    + (summary.unreplayable() > 0 ? "; " + summary.unreplayable() + " could not be sent back (see above)" : ""));
            return summary.unreplayable() > 0 ? 1 : 0;
        }
    }
}
