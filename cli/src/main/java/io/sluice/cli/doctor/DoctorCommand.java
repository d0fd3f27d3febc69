package io.sluice.cli.doctor;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.sluice.cli.CliCommand;
import io.sluice.cli.CommandLineSettings;
import io.sluice.cli.UsageException;
import io.sluice.config.Settings;
import io.sluice.processor.ProcessorConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./sluice doctor}: the first command on a bad night. */
@Command(name = "doctor", description = {"Check Kafka, the topics, the registry, ClickHouse and its schema, lag, dead letters",
        "and the servers' readiness: a line each, exit code 1 when any fails, each failing line saying what to do."})
public final class DoctorCommand extends CliCommand {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Settings settings;
    private final PrintStream out;
    @Option(names = "--gateway", paramLabel = "URL", description = "A gateway's admin address, such as http://gw-1:8081 (repeatable): its /readyz.")
    private List<String> gateways = new ArrayList<>();
    @Option(names = "--processor", paramLabel = "URL", description = "A processor's admin address (repeatable): its /readyz, and lag and age from its /metrics.")
    private List<String> processors = new ArrayList<>();
    @Option(names = "--bootstrap-server", paramLabel = "HOST:PORT", description = "Kafka (default $SLUICE_KAFKA_BOOTSTRAP_SERVERS).")
    private String bootstrapServers;
    @Option(names = "--clickhouse-url", paramLabel = "URL", description = "ClickHouse (default $SLUICE_CLICKHOUSE_URL).")
    private String clickHouseUrl;
    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "5s", description = "How long each check waits (default ${DEFAULT-VALUE}).")
    private String timeout;
    @Option(names = "--json", description = "Print one JSON object: ok, and each check's name, ok, detail and fix.")
    private boolean json;

    public DoctorCommand(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    @Override
    public Integer call() {
        Duration wait;
        try {
            wait = Settings.parseDuration(timeout);
        } catch (IllegalArgumentException e) {
            throw new UsageException("--timeout is a duration such as 5s, not " + timeout);
        }
        for (String url : concat(gateways, processors)) {
            if (!url.matches("https?://[^\\s/]+/?")) {
                throw new UsageException("--gateway and --processor take an admin address such as http://host:8081, not " + url);
            }
        }
        Doctor.Targets targets = new Doctor.Targets(CommandLineSettings.kafka(settings, bootstrapServers),
                CommandLineSettings.clickHouse(settings, clickHouseUrl), settings.get(ProcessorConfig.APPLICATION_ID), gateways, processors);
        List<Check> checks = new Doctor(targets, wait).run();
        boolean ok = checks.stream().allMatch(Check::ok);
        if (json) {
            ObjectNode result = JSON.createObjectNode().put("ok", ok);
            ArrayNode all = result.putArray("checks");
            for (Check check : checks) {
                ObjectNode node = all.addObject().put("name", check.name()).put("ok", check.ok()).put("detail", check.detail());
                if (check.fix() != null) {
                    node.put("fix", check.fix());
                }
            }
            out.println(result);
        } else {
            checks.forEach(check -> out.println(check.line()));
        }
        return ok ? 0 : 1;
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
