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
    void errorsThatMayComeFromTheTableRatherThanTheRowAreRetried() {
        // 53 TYPE_MISMATCH, 69 ARGUMENT_OUT_OF_BOUND, 70 CANNOT_CONVERT_TYPE: no row content produced them.
        assertEquals(Optional.empty(), Refusals.refusedData(new ServerException(53, "Type mismatch", 500, "q")));
        assertEquals(Optional.empty(), Refusals.refusedData(new ServerException(69, "Argument out of bound", 500, "q")));
        assertEquals(Optional.empty(), Refusals.refusedData(new ServerException(70, "Cannot convert", 500, "q")));
    }

    @Test
    void anInvalidBooleanIsRefusedData() {
        assertEquals(Optional.of("Code: 467. Invalid boolean value"),
                Refusals.refusedData(new ServerException(467, "Code: 467. Invalid boolean value", 400, "q")));
    }

    @Test
    void anUnreachableServerIsRetried() {
        assertEquals(Optional.empty(), Refusals.refusedData(new ClientException("failed", new ConnectException("refused"))));
    }
}
