package io.sluice.testkit;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test a real Kafka broker and a real ClickHouse server, started once per test JVM and
 * stopped when the JVM's tests end. Declare {@code @ExtendWith(RealEngines.class)} and take an
 * {@link Engines} parameter (constructor, lifecycle or test method).
 *
 * <p>By default both run on this machine without Docker ({@link LocalEngines}). With
 * {@code SLUICE_TEST_INFRA=containers} they are the official images, through Testcontainers
 * ({@link ContainerEngines}).
 */
public final class RealEngines implements BeforeAllCallback, ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(RealEngines.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        engines(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Engines.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return engines(context);
    }

    /** The root store closes its AutoCloseable values once, after the last test of the JVM. */
    private static Engines engines(ExtensionContext context) {
        return context.getRoot().getStore(NAMESPACE)
                .getOrComputeIfAbsent(Engines.class, key -> start(), Engines.class);
    }

    private static Engines start() {
        String infra = System.getenv().getOrDefault("SLUICE_TEST_INFRA", "local");
        return switch (infra) {
            case "local" -> LocalEngines.start();
            case "containers" -> ContainerEngines.start();
            default -> throw new IllegalArgumentException(
                    "SLUICE_TEST_INFRA must be 'local' (default) or 'containers', not '" + infra + "'");
        };
    }
}
