package io.sluice.processor;

import io.sluice.config.Settings;
import io.sluice.fatal.FatalErrors;

/** Runs a processor configured from the environment until SIGTERM/SIGINT. */
public final class ProcessorMain {
    private ProcessorMain() {
    }

    public static void main(String[] args) {
        FatalErrors.install();
        ProcessorService processor = ProcessorService.start(ProcessorConfig.from(Settings.fromEnvironment()));
        Runtime.getRuntime().addShutdownHook(new Thread(processor::close, "sluice-processor-shutdown"));
    }
}
