package io.sluice.projects;

import java.io.IOException;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/** The registry topic's value format: a project as snake_case JSON, times as ISO 8601. */
public final class ProjectJson {
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private ProjectJson() {
    }

    public static byte[] write(Project project) {
        try {
            return MAPPER.writeValueAsBytes(project);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write project " + project.token(), e);
        }
    }

    public static Project read(byte[] json) throws IOException {
        return MAPPER.readValue(json, Project.class);
    }
}
