package io.sluice.stack;

import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

import io.sluice.cli.CliCommand;
import io.sluice.cli.LongRunning;
import io.sluice.config.KafkaSettings;
import io.sluice.config.Settings;
import io.sluice.engines.Directories;
import io.sluice.engines.LocalPlatform;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./sluice dev [--reset]}: runs the local stack until Ctrl-C, then stops it in order. Main
 * must not exit after it ({@link LongRunning}): the shutdown hook ends the JVM, and System.exit
 * inside it would hang.
 */
@Command(name = "dev", description = {"Run everything locally (Kafka, ClickHouse, processor, gateway) until Ctrl-C.",
        "Data in .sluice/ ($SLUICE_HOME), logs in .sluice/logs/sluice.log."})
final class DevCommand extends CliCommand implements LongRunning {
    private final Settings settings;
    private final PrintStream out;
    @Option(names = "--reset", description = "Wipe the local data first.")
    private boolean reset;

    DevCommand(Settings settings, PrintStream out) {
        this.settings = settings;
        this.out = out;
    }

    @Override
    public Integer call() throws InterruptedException {
        java.util.Optional<String> unsupported = LocalPlatform.current().unsupported();
        if (unsupported.isPresent()) {
            out.println("✗ " + unsupported.get());
            return 2;
        }
        StackConfig config = StackConfig.from(settings);
        if (reset) {
            try {
                Directories.deleteRecursively(config.home());
            } catch (IOException e) {
                throw new IllegalStateException("cannot wipe " + config.home() + ": " + e.getMessage(), e);
            }
            out.println("· wiped " + config.home());
        }
        out.println("Starting Sluice locally (data in " + config.home() + ", logs in " + config.logs() + ")");
        LocalStack stack = new LocalStack(config, settings, out);
        CountDownLatch stopped = stopOnShutdown(stack, config);
        stack.start();
        DemoProject demo = DemoProject.ensure(config.home(), stack.kafkaBootstrapServers(),
                KafkaSettings.from(settings).topics().projects());
        out.println();
        out.println("Sluice is running. Ctrl-C stops everything; logs in " + config.logs() + ".");
        out.println();
        demo.printTryIt(out, stack.gatewayPort());
        stopped.await();
        return 0;
    }

    /** Registered before starting, so Ctrl-C halfway through start stops what already runs. */
    private CountDownLatch stopOnShutdown(LocalStack stack, StackConfig config) {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            out.println("\nStopping Sluice…");
            stack.close();
            out.println("✓ stopped; data kept in " + config.home());
            stopped.countDown();
        }, "sluice-dev-shutdown"));
        return stopped;
    }
}
