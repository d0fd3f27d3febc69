package io.sluice.stack;

import io.sluice.cli.SluiceCli;

/**
 * The developer's {@code ./sluice}: the server's command line ({@link SluiceCli}) plus {@code dev}
 * and {@code bench}, which need the embedded Kafka broker and ClickHouse the server image must not
 * carry.
 */
public final class DeveloperCli {
    private DeveloperCli() {
    }

    public static void main(String[] argv) {
        SluiceCli.launch(argv, new DeveloperCommands());
    }
}
