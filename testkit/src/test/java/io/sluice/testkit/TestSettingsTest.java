package io.sluice.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.sluice.config.Aggregate;
import io.sluice.config.Topics;

class TestSettingsTest {
    private static final Engines NOWHERE = new FixedEngines("127.0.0.1:1", "http://127.0.0.1:1", "default", "");

    private record FixedEngines(String kafkaBootstrapServers, String clickHouseUrl, String clickHouseUser, String clickHousePassword)
            implements Engines {
    }

    /** A topic left at its default would be shared by every test class in the JVM that uses it. */
    @Test
    void anIsolatedPipelineNamesEveryTopicItsOwn() throws Exception {
        Topics topics = Topics.from(TestSettings.isolated("alone", NOWHERE, Path.of("state")).build());
        List<String> names = new ArrayList<>(topics.aggregates().values());
        for (RecordComponent component : Topics.class.getRecordComponents()) {
            if (component.getType() == String.class) {
                names.add((String) component.getAccessor().invoke(topics));
            }
        }
        assertEquals(8 + Aggregate.ALL.size(), names.size(), "the raw, registry, history, dead-letter and quota topics, and one per aggregate");
        assertEquals(List.of(), names.stream().filter(name -> !name.startsWith("alone.")).toList());
    }
}
