package io.sluice.kafka;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;

import io.sluice.config.KafkaClientProperties;
import io.sluice.config.KafkaSettings;

/**
 * Turns what a Kafka client threw at startup into one sentence for the operator: a failed TLS
 * handshake, refused credentials (naming the user and the mechanism, never the password), a
 * missing permission, no answer, or properties the client could not use. Thrown instead of the client's exception, with
 * that exception as the cause, so the command line prints a message rather than a stack trace.
 */
public final class KafkaStartupFailure extends IllegalStateException {
    private KafkaStartupFailure(String message, Throwable cause) {
        super(message, cause);
    }

    /**
     * @param doing what Sluice was doing, e.g. "cannot create Sluice's topics"
     * @param timeoutSeconds how long it waited, for the message when Kafka did not answer
     */
    public static KafkaStartupFailure of(String doing, Throwable error, KafkaSettings kafka, long timeoutSeconds) {
        Throwable cause = unwrap(error);
        KafkaClientProperties props = kafka.clientProperties();
        String protocol = orDefault(props.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG), "PLAINTEXT");
        String at = "Kafka at " + kafka.bootstrapServers();
        String message;
        if (cause instanceof SslAuthenticationException) {
            message = doing + ": the TLS handshake with " + at + " failed: " + chain(cause) + ". Check that ssl.truststore.*"
                    + origin(props, "ssl.truststore.location") + " trusts the broker's certificate, and that the certificate "
                    + "names the address in SLUICE_KAFKA_BOOTSTRAP_SERVERS";
        } else if (cause instanceof AuthenticationException) {
            String user = props.saslUser();
            message = doing + ": authentication failed at " + at + " for user " + (user == null ? "(none given)" : "'" + user + "'")
                    + " with SASL mechanism " + orDefault(props.get(SaslConfigs.SASL_MECHANISM), SaslConfigs.DEFAULT_SASL_MECHANISM)
                    + " over " + protocol + ": " + cause.getMessage()
                    + ". Check sasl.jaas.config" + origin(props, SaslConfigs.SASL_JAAS_CONFIG) + " and sasl.mechanism"
                    + origin(props, SaslConfigs.SASL_MECHANISM);
        } else if (cause instanceof AuthorizationException) {
            String user = props.saslUser();
            message = doing + ": " + at + " does not allow " + (user == null ? "this client" : "user '" + user + "'")
                    + " to do it: " + cause.getMessage() + ". Grant the ACLs docs/operations.md lists";
        } else if (cause instanceof TimeoutException || cause instanceof java.util.concurrent.TimeoutException) {
            message = doing + ": " + at + " did not answer within " + timeoutSeconds + " s. Check that it is reachable, and that "
                    + "security.protocol (" + protocol + ") is what its listener expects";
        } else {
            message = doing + ": " + chain(cause);
        }
        return new KafkaStartupFailure(message, cause);
    }

    private static Throwable unwrap(Throwable error) {
        Throwable current = error;
        while ((current instanceof ExecutionException || current instanceof CompletionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        // A client that cannot be built says "Failed to construct kafka producer": the reason is below.
        for (Throwable below = current; below != null; below = below.getCause()) {
            if (below instanceof AuthenticationException || below instanceof AuthorizationException) {
                return below;
            }
        }
        return current;
    }

    /** Each message of the chain once: the client's own words say which property was wrong. */
    private static String chain(Throwable error) {
        StringBuilder text = new StringBuilder();
        for (Throwable current = error; current != null; current = current.getCause()) {
            String message = current.getMessage() == null ? current.getClass().getSimpleName() : current.getMessage();
            if (text.indexOf(message) < 0) {
                text.append(text.length() == 0 ? "" : ": ").append(message);
            }
        }
        return text.toString();
    }

    private static String origin(KafkaClientProperties props, String name) {
        String origin = props.origin(name);
        return origin == null ? " (not set)" : " (" + origin + ")";
    }

    private static String orDefault(String value, String fallback) {
        return value == null ? fallback : value;
    }
}
