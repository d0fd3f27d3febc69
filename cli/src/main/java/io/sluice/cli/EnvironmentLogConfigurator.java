package io.sluice.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.spi.ContextAwareBase;

import io.sluice.config.Settings;

/**
 * Logback's first configuration, from the {@code SLUICE_LOG_*} environment, for a JVM that starts a
 * server's main directly (the bench's child JVMs) rather than through {@link SluiceCli}, which
 * configures again once it knows the command. A {@code logback-test.xml} on the class path wins.
 */
public final class EnvironmentLogConfigurator extends ContextAwareBase implements Configurator {
    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (getClass().getClassLoader().getResource("logback-test.xml") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        LogSettings.LogConfig config;
        try {
            config = LogSettings.from(Settings.fromEnvironment(), "gateway", null);
        } catch (IllegalArgumentException e) {
            addError(e.getMessage() + "; logging with the defaults");
            config = LogSettings.from(new Settings(java.util.Map.of()), "gateway", null);
        }
        Logging.apply(context, config);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
