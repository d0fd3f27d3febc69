package io.sluice.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.streams.StreamsConfig;

/**
 * Kafka client properties the operator gives (security above all: {@code security.protocol},
 * {@code sasl.*}, {@code ssl.*}), applied to every Kafka client Sluice creates. They come from
 * {@code SLUICE_KAFKA_PROPERTY_<NAME>} variables and from the file {@code SLUICE_KAFKA_PROPERTIES_FILE}
 * names (a variable wins over the file). Checked once, at startup: a name no Kafka client knows,
 * a property Sluice sets itself, or a value Kafka would refuse is an error naming it. Secret values
 * never appear in {@link #toString()} or in an error.
 */
public final class KafkaClientProperties {
    public static final String VARIABLE_PREFIX = "SLUICE_KAFKA_PROPERTY_";
    public static final Setting PROPERTIES_FILE = new Setting("SLUICE_KAFKA_PROPERTIES_FILE", "",
            "A Java properties file of Kafka client properties (security.protocol, sasl.*, ssl.*…) for every Kafka "
                    + "client; SLUICE_KAFKA_PROPERTY_<NAME> variables (name upper-cased, dots as underscores) win over it.");

    public static final KafkaClientProperties NONE = new KafkaClientProperties(Map.of(), Map.of());

    /** The clients Sluice creates; each takes only the properties it knows. */
    public enum Client {
        PRODUCER, CONSUMER, ADMIN,
        /** Kafka Streams, which hands producer, consumer and admin properties on to its own clients. */
        STREAMS
    }

    /** What Sluice sets itself, per client, to keep its promises (or through a setting of its own). */
    private static final Map<String, String> RESERVED = reserved();

    private static final Map<Client, Map<String, ConfigDef.ConfigKey>> KNOWN = known();
    /** Every known name by its variable spelling: {@code SASL_JAAS_CONFIG} → {@code sasl.jaas.config}. */
    private static final Map<String, String> BY_VARIABLE_NAME = byVariableName();
    private static final Pattern SECRET_NAME = Pattern.compile(".*(password|secret|jaas|credential|token|private|keystore\\.key).*");

    private final SortedMap<String, String> values;
    /** Where each value came from: its variable, or the file. */
    private final Map<String, String> origins;

    private KafkaClientProperties(Map<String, String> values, Map<String, String> origins) {
        this.values = Collections.unmodifiableSortedMap(new TreeMap<>(values));
        this.origins = Map.copyOf(origins);
    }

    /** The properties given by these settings, checked: throws IllegalArgumentException naming every problem. */
    public static KafkaClientProperties from(Settings settings) {
        Map<String, String> values = new HashMap<>();
        Map<String, String> origins = new HashMap<>();
        List<String> problems = new ArrayList<>();
        String file = settings.get(PROPERTIES_FILE);
        if (!file.isBlank()) {
            readFile(Path.of(file), values, origins, problems);
        }
        settings.withPrefix(VARIABLE_PREFIX).forEach((suffix, value) -> {
            String name = BY_VARIABLE_NAME.get(suffix);
            if (name == null) {
                problems.add(VARIABLE_PREFIX + suffix + ": no Kafka client property is called "
                        + suffix.toLowerCase(java.util.Locale.ROOT).replace('_', '.')
                        + " (the variable is SLUICE_KAFKA_PROPERTY_ and the property's name upper-cased, dots as underscores)");
                return;
            }
            values.put(name, value);
            origins.put(name, VARIABLE_PREFIX + suffix);
        });
        values.forEach((name, value) -> check(name, value, origins.get(name), problems));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid Kafka client properties: " + String.join("; ", problems));
        }
        return new KafkaClientProperties(values, origins);
    }

    /** The properties this kind of client knows, to start its configuration from. */
    public Map<String, String> forClient(Client client) {
        Map<String, ConfigDef.ConfigKey> known = KNOWN.get(client);
        Map<String, String> applicable = new LinkedHashMap<>();
        values.forEach((name, value) -> {
            if (known.containsKey(name)) {
                applicable.put(name, value);
            }
        });
        return applicable;
    }

    /** The value given for this property, or null. */
    public String get(String name) {
        return values.get(name);
    }

    /** Where the value of this property came from (a variable or the properties file), or null. */
    public String origin(String name) {
        return origins.get(name);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /**
     * The user a SASL login presents, from {@code sasl.jaas.config} ({@code username="…"}), or null:
     * for messages, never the password.
     */
    public String saslUser() {
        String jaas = values.get(SaslConfigs.SASL_JAAS_CONFIG);
        if (jaas == null) {
            return null;
        }
        var match = Pattern.compile("username\\s*=\\s*\"([^\"]*)\"").matcher(jaas);
        return match.find() ? match.group(1) : null;
    }

    /** True for properties whose value must not be shown: Kafka's PASSWORD types, and names that say so. */
    public static boolean isSecret(String name) {
        for (Map<String, ConfigDef.ConfigKey> keys : KNOWN.values()) {
            ConfigDef.ConfigKey key = keys.get(name);
            if (key != null && key.type == ConfigDef.Type.PASSWORD) {
                return true;
            }
        }
        return SECRET_NAME.matcher(name.toLowerCase(java.util.Locale.ROOT)).matches();
    }

    /** Every property name Kafka's clients (and Streams) know. */
    static Set<String> knownNames() {
        return new TreeSet<>(KNOWN.get(Client.STREAMS).keySet());
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof KafkaClientProperties that && values.equals(that.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    /** The properties with every secret value hidden: safe to log. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("{");
        values.forEach((name, value) -> {
            if (text.length() > 1) {
                text.append(", ");
            }
            text.append(name).append('=').append(isSecret(name) ? "[hidden]" : value);
        });
        return text.append('}').toString();
    }

    private static void readFile(Path file, Map<String, String> values, Map<String, String> origins, List<String> problems) {
        Properties props = new Properties();
        try (Reader reader = Files.newBufferedReader(file)) {
            props.load(reader);
        } catch (IOException e) {
            problems.add(PROPERTIES_FILE.name() + "=" + file + ": cannot read it (" + e + ")");
            return;
        }
        for (String name : props.stringPropertyNames()) {
            String value = props.getProperty(name).strip();
            if (!value.isEmpty()) {
                values.put(name.strip(), value);
                origins.put(name.strip(), file.toString());
            }
        }
    }

    private static void check(String name, String value, String origin, List<String> problems) {
        String where = origin + (origin.startsWith(VARIABLE_PREFIX) ? "" : " (" + name + ")");
        String reserved = RESERVED.get(name);
        if (reserved != null) {
            problems.add(where + ": Sluice sets " + name + " itself (" + reserved + ")");
            return;
        }
        if (!KNOWN.get(Client.STREAMS).containsKey(name)) {
            problems.add(where + ": no Kafka client property is called " + name);
            return;
        }
        for (Map<String, ConfigDef.ConfigKey> keys : KNOWN.values()) {
            ConfigDef.ConfigKey key = keys.get(name);
            if (key == null) {
                continue;
            }
            try {
                Object parsed = ConfigDef.parseType(name, value, key.type);
                if (key.validator != null) {
                    key.validator.ensureValid(name, parsed);
                }
            } catch (ConfigException e) {
                String message = isSecret(name) ? "not a valid value for " + name + " (" + key.type + ")" : e.getMessage();
                problems.add(where + ": " + message);
                return;
            }
        }
    }

    private static Map<Client, Map<String, ConfigDef.ConfigKey>> known() {
        Map<String, ConfigDef.ConfigKey> producer = ProducerConfig.configDef().configKeys();
        Map<String, ConfigDef.ConfigKey> consumer = ConsumerConfig.configDef().configKeys();
        Map<String, ConfigDef.ConfigKey> admin = AdminClientConfig.configDef().configKeys();
        Map<String, ConfigDef.ConfigKey> streams = new HashMap<>();
        streams.putAll(admin);
        streams.putAll(consumer);
        streams.putAll(producer);
        streams.putAll(StreamsConfig.configDef().configKeys());
        Map<Client, Map<String, ConfigDef.ConfigKey>> known = new java.util.EnumMap<>(Client.class);
        known.put(Client.PRODUCER, Map.copyOf(producer));
        known.put(Client.CONSUMER, Map.copyOf(consumer));
        known.put(Client.ADMIN, Map.copyOf(admin));
        known.put(Client.STREAMS, Map.copyOf(streams));
        return java.util.Collections.unmodifiableMap(known);
    }

    /**
     * Kafka's names are lower case with dots (two Streams names have underscores, which is why the
     * variable's name is looked up among the known names rather than turned back into one).
     */
    private static Map<String, String> byVariableName() {
        Map<String, String> byVariable = new HashMap<>();
        for (String name : KNOWN.get(Client.STREAMS).keySet()) {
            byVariable.put(variableName(name), name);
        }
        return Map.copyOf(byVariable);
    }

    /** {@code sasl.jaas.config} → {@code SASL_JAAS_CONFIG}: the part after {@link #VARIABLE_PREFIX}. */
    static String variableName(String property) {
        return property.toUpperCase(java.util.Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    private static Map<String, String> reserved() {
        String topicsSetting = "set by SLUICE_TOPIC_REPLICATION_FACTOR";
        Map<String, String> reserved = new HashMap<>();
        reserved.put("bootstrap.servers", "set it with SLUICE_KAFKA_BOOTSTRAP_SERVERS");
        reserved.put("client.id", "each client is named for what it does");
        reserved.put("acks", "all: an event is answered 2xx only once every in-sync replica has it");
        reserved.put("enable.idempotence", "true: a retried send is not written twice");
        reserved.put("transactional.id", "exactly-once processing sets it");
        reserved.put("isolation.level", "read_committed: only what exactly-once processing committed is read");
        reserved.put("group.id", "each reader has its own group");
        reserved.put("group.instance.id", "set by SLUICE_PROCESSOR_INSTANCE_ID");
        reserved.put("enable.auto.commit", "offsets are committed with what was done");
        reserved.put("application.id", "set by SLUICE_PROCESSOR_APPLICATION_ID");
        reserved.put("processing.guarantee", "exactly_once_v2: every event is counted once");
        reserved.put("state.dir", "set by SLUICE_PROCESSOR_STATE_DIR");
        reserved.put("num.stream.threads", "set by SLUICE_PROCESSOR_THREADS");
        reserved.put("replication.factor", topicsSetting);
        for (String serde : List.of("key.serializer", "value.serializer", "key.deserializer", "value.deserializer")) {
            reserved.put(serde, "events are bytes");
        }
        return Map.copyOf(reserved);
    }
}
