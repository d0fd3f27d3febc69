package io.sluice.processor.rows;

/**
 * The output record key of an aggregate row: its key columns, each as {@code length:value}, so
 * that no two rows share a key whatever their strings hold ({@code /} included): compaction and
 * replay keep the newest copy of each row, never one row for another.
 */
final class RowKeys {
    private RowKeys() {
    }

    static String of(Object... columns) {
        StringBuilder key = new StringBuilder();
        for (Object column : columns) {
            String value = String.valueOf(column);
            key.append(value.length()).append(':').append(value).append('/');
        }
        return key.toString();
    }
}
