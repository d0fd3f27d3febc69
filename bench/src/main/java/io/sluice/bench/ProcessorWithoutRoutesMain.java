package io.sluice.bench;

import io.sluice.config.Settings;
import io.sluice.fatal.FatalErrors;
import io.sluice.processor.ProcessorService;
import io.sluice.processor.ProcessorConfig;

/**
 * The processor as {@link io.sluice.processor.ProcessorMain} runs it, but without the transactions'
 * per-route aggregates: the bench's child for the pipeline's rate without them, in the same run.
 * A bench class on purpose: deployments have no way to leave them out.
 */
public final class ProcessorWithoutRoutesMain {
    private ProcessorWithoutRoutesMain() {
    }

    public static void main(String[] args) {
        FatalErrors.install();
        ProcessorService processor = ProcessorService.start(ProcessorConfig.from(Settings.fromEnvironment()), false);
        Runtime.getRuntime().addShutdownHook(new Thread(processor::close, "sluice-processor-shutdown"));
    }
}
