package io.sluice.projects;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * The registry's records, outside the heap: an append-only file mapped into memory in chunks of
 * {@link #CHUNK_BYTES}, each record its token and its JSON as the topic holds it. The file is
 * deleted as soon as it is open (its space returns when the process ends) and its pages are the
 * kernel's to evict, so a million projects (540 MiB of records) cost the heap nothing; a new version of a
 * record is appended and the old one is left behind (changes are rare: an operator's).
 * One writer; readers read what an address published under {@link ProjectTable}'s lock names.
 */
final class RecordFile implements AutoCloseable {
    static final int CHUNK_BYTES = 64 << 20;

    private final FileChannel channel;
    private volatile MappedByteBuffer[] chunks = new MappedByteBuffer[0];
    private int writePosition = CHUNK_BYTES;
    private volatile long bytesWritten; // one writer (the follower), read by metric scrapes

    RecordFile() {
        try {
            Path path = Files.createTempFile("sluice-registry-", ".records");
            channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE);
            Files.delete(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the registry's record file in " + System.getProperty("java.io.tmpdir"), e);
        }
    }

    /** Appends a record; its address. */
    long append(byte[] token, byte[] json) throws IOException {
        int length = 8 + token.length + json.length;
        if (length > CHUNK_BYTES) {
            throw new IOException("a record of " + length + " bytes, more than the " + CHUNK_BYTES + " a project may take");
        }
        if (writePosition + length > CHUNK_BYTES) {
            MappedByteBuffer[] grown = Arrays.copyOf(chunks, chunks.length + 1);
            grown[chunks.length] = channel.map(FileChannel.MapMode.READ_WRITE, (long) chunks.length * CHUNK_BYTES, CHUNK_BYTES);
            chunks = grown;
            writePosition = 0;
        }
        MappedByteBuffer chunk = chunks[chunks.length - 1];
        long address = (long) (chunks.length - 1) * CHUNK_BYTES + writePosition;
        chunk.putInt(writePosition, token.length);
        chunk.put(writePosition + 4, token);
        chunk.putInt(writePosition + 4 + token.length, json.length);
        chunk.put(writePosition + 8 + token.length, json);
        writePosition += length;
        bytesWritten += length;
        return address;
    }

    boolean tokenEquals(long address, byte[] token) {
        MappedByteBuffer chunk = chunks[(int) (address / CHUNK_BYTES)];
        int at = (int) (address % CHUNK_BYTES);
        if (chunk.getInt(at) != token.length) {
            return false;
        }
        return chunk.slice(at + 4, token.length).equals(java.nio.ByteBuffer.wrap(token));
    }

    byte[] token(long address) {
        MappedByteBuffer chunk = chunks[(int) (address / CHUNK_BYTES)];
        int at = (int) (address % CHUNK_BYTES);
        byte[] token = new byte[chunk.getInt(at)];
        chunk.get(at + 4, token);
        return token;
    }

    byte[] json(long address) {
        MappedByteBuffer chunk = chunks[(int) (address / CHUNK_BYTES)];
        int at = (int) (address % CHUNK_BYTES);
        at += 4 + chunk.getInt(at);
        byte[] json = new byte[chunk.getInt(at)];
        chunk.get(at + 4, json);
        return json;
    }

    long bytesWritten() {
        return bytesWritten;
    }

    @Override
    public void close() {
        try {
            channel.close(); // the mappings stay valid until collected; nothing reads them after close
        } catch (IOException e) {
            // nothing to do: the file is already unlinked
        }
    }
}
