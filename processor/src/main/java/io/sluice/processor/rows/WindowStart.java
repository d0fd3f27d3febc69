package io.sluice.processor.rows;

import java.io.IOException;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.util.NameTransformer;

import io.sluice.config.Aggregate.Window;

/**
 * The start of an aggregate row's window, in epoch seconds, and the window: a row holds it
 * {@code @JsonUnwrapped}, so its JSON has the start under the window's time column
 * ({@code "minute"} or {@code "hour"}, {@link Window#timeColumn}), the column the sink's tables
 * hold it in. So the minute and hour rows of a grouping are one type.
 */
@JsonSerialize(using = WindowStart.Writer.class)
public record WindowStart(Window window, long epochSecond) {
    /**
     * The start read from a row: from whichever window's time column it has (Jackson hands an
     * unwrapped value the row's fields that are not the row's own).
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    static WindowStart read(Map<String, Object> fields) {
        for (Window window : Window.values()) {
            if (fields.get(window.timeColumn()) instanceof Number start) {
                return new WindowStart(window, start.longValue());
            }
        }
        throw new IllegalArgumentException("a row with no time column of a window: " + fields.keySet());
    }

    /** The window that starts at {@code startMillis} (epoch milliseconds, a whole second). */
    public static WindowStart ofMillis(Window window, long startMillis) {
        return new WindowStart(window, startMillis / 1000);
    }

    /** Writes the start as one field of the row that holds it. */
    static final class Writer extends StdSerializer<WindowStart> {
        Writer() {
            super(WindowStart.class);
        }

        @Override
        public void serialize(WindowStart start, JsonGenerator json, SerializerProvider provider) throws IOException {
            json.writeNumberField(start.window().timeColumn(), start.epochSecond());
        }

        @Override
        public boolean isUnwrappingSerializer() {
            return true;
        }

        @Override
        public JsonSerializer<WindowStart> unwrappingSerializer(NameTransformer unwrapper) {
            return this;
        }
    }
}
