package io.sluice.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.ConnectException;
import java.util.Optional;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Test;

import com.clickhouse.client.api.ClientException;
import com.clickhouse.client.api.ServerException;

class RefusalsTest {
    @Test
    void aParseErrorOfTheServerIsRefusedDataWithItsFirstLine() {
        ServerException error = new ServerException(25, "Code: 25. DB::Exception: Cannot parse escape sequence\nstack", 400, "q");
        assertEquals(Optional.of("Code: 25. DB::Exception: Cannot parse escape sequence"),
                Refusals.refusedData(new ExecutionException(error)));
    }

    @Test
    void aServerErrorThatIsNotAboutTheDataIsRetried() {
        // 252 TOO_MANY_PARTS, 241 MEMORY_LIMIT_EXCEEDED: ClickHouse is busy, the rows are fine.
        assertEquals(Optional.empty(), Refusals.refusedData(new ServerException(252, "Too many parts", 500, "q")));
        assertEquals(Optional.empty(), Refusals.refusedData(new ServerException(241, "Memory limit", 500, "q")));
    }

    @Test
    void anUnreachableServerIsRetried() {
        assertEquals(Optional.empty(), Refusals.refusedData(new ClientException("failed", new ConnectException("refused"))));
    }
}
