package io.sluice.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;

class AuditLogTest {
    private final Logger audit = (Logger) LoggerFactory.getLogger(AuditLog.LOGGER);
    private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
    private Level levelBefore;

    @BeforeEach
    void listen() {
        levelBefore = audit.getLevel();
        audit.setLevel(Level.INFO);
        lines.start();
        audit.addAppender(lines);
    }

    @AfterEach
    void stopListening() {
        audit.detachAppender(lines);
        audit.setLevel(levelBefore);
    }

    @Test
    void aChangeThatIsDoneLogsWhenItStartsAndTheRowsItTouched() {
        AuditLog.change("deleting user alice", "p1", "dpo@example.com", () -> Map.of("db.errors", 3L));
        assertEquals(List.of("INFO deleting user alice of project p1, asked by dpo@example.com: started",
                "INFO deleting user alice of project p1, asked by dpo@example.com: done, rows {db.errors=3}"), logged());
    }

    @Test
    void aChangeThatFailsLogsWhyAndIsStillThrown() {
        IllegalStateException failure = new IllegalStateException("ClickHouse is unreachable");
        IllegalStateException thrown = assertThrows(IllegalStateException.class,
                () -> AuditLog.change("deleting the project", "p1", "ops", () -> {
                    throw failure;
                }));
        assertSame(failure, thrown);
        assertEquals(List.of("INFO deleting the project of project p1, asked by ops: started",
                "WARN deleting the project of project p1, asked by ops: failed: ClickHouse is unreachable"), logged());
    }

    private List<String> logged() {
        return lines.list.stream().map(line -> line.getLevel() + " " + line.getFormattedMessage()).toList();
    }
}
