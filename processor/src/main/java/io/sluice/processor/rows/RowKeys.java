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

    /**
     * The key of traffic-1m's and errors-1m's rows: the columns joined with {@code /}. Their topics
     * hold rows under these keys, and a row's newer copy must replace the older under the same key.
     */
    static String joined(Object... columns) {
        StringBuilder key = new StringBuilder();
        for (Object column : columns) {
            if (!key.isEmpty()) {
                key.append('/');
            }
            key.append(column);
        }
        return key.toString();
    }
}
