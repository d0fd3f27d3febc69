package io.sluice.projects;

import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * A multimap from a 32-bit hash to project slots, in two int arrays (open addressing, linear
 * probing, deletion by backward shift): 8 bytes an entry where a {@code ConcurrentHashMap} entry
 * with its hex-string key took about 150. A hash only narrows the search: every lookup checks
 * its candidates against the record itself, so two keys that share a hash are both found.
 * Not thread-safe: {@link ProjectTable} guards it.
 */
final class SlotIndex {
    private static final int EMPTY = -1;
    private static final int MIN_CAPACITY = 16;

    private int[] hashes;
    private int[] slots;
    private int size;

    SlotIndex() {
        allocate(MIN_CAPACITY);
    }

    /** Adds the pair, unless it is there already. */
    void add(int hash, int slot) {
        if (indexOf(hash, slot) >= 0) {
            return;
        }
        if ((size + 1) * 4L > slots.length * 3L) { // at most 3/4 full: probes stay short
            grow();
        }
        insert(hash, slot);
        size++;
    }

    /** Removes the pair; false when it was not there. */
    boolean remove(int hash, int slot) {
        int at = indexOf(hash, slot);
        if (at < 0) {
            return false;
        }
        shiftBack(at);
        size--;
        return true;
    }

    /** The first slot under this hash that {@code matches} accepts, or -1. */
    int find(int hash, IntPredicate matches) {
        int mask = slots.length - 1;
        for (int at = home(hash, mask); slots[at] != EMPTY; at = (at + 1) & mask) {
            if (hashes[at] == hash && matches.test(slots[at])) {
                return slots[at];
            }
        }
        return -1;
    }

    /** Every slot under this hash. */
    void forEach(int hash, java.util.function.IntConsumer action) {
        int mask = slots.length - 1;
        for (int at = home(hash, mask); slots[at] != EMPTY; at = (at + 1) & mask) {
            if (hashes[at] == hash) {
                action.accept(slots[at]);
            }
        }
    }

    /** How many slots under this hash {@code matches} accepts. */
    int count(int hash, IntPredicate matches) {
        int mask = slots.length - 1;
        int count = 0;
        for (int at = home(hash, mask); slots[at] != EMPTY; at = (at + 1) & mask) {
            if (hashes[at] == hash && matches.test(slots[at])) {
                count++;
            }
        }
        return count;
    }

    int size() {
        return size;
    }

    /** The heap its arrays take. */
    long bytes() {
        return 2L * (16 + 4L * slots.length);
    }

    private int indexOf(int hash, int slot) {
        int mask = slots.length - 1;
        for (int at = home(hash, mask); slots[at] != EMPTY; at = (at + 1) & mask) {
            if (hashes[at] == hash && slots[at] == slot) {
                return at;
            }
        }
        return -1;
    }

    private void insert(int hash, int slot) {
        int mask = slots.length - 1;
        int at = home(hash, mask);
        while (slots[at] != EMPTY) {
            at = (at + 1) & mask;
        }
        hashes[at] = hash;
        slots[at] = slot;
    }

    /** Empties {@code at} and moves later entries of its run back, so that no probe stops early. */
    private void shiftBack(int at) {
        int mask = slots.length - 1;
        int hole = at;
        for (int next = (hole + 1) & mask; slots[next] != EMPTY; next = (next + 1) & mask) {
            int home = home(hashes[next], mask);
            // Move it into the hole unless its home lies cyclically in (hole, next].
            boolean homeAfterHole = hole <= next ? hole < home && home <= next : hole < home || home <= next;
            if (!homeAfterHole) {
                hashes[hole] = hashes[next];
                slots[hole] = slots[next];
                hole = next;
            }
        }
        slots[hole] = EMPTY;
    }

    private void grow() {
        int[] oldHashes = hashes;
        int[] oldSlots = slots;
        allocate(oldSlots.length * 2);
        for (int at = 0; at < oldSlots.length; at++) {
            if (oldSlots[at] != EMPTY) {
                insert(oldHashes[at], oldSlots[at]);
            }
        }
    }

    private void allocate(int capacity) {
        hashes = new int[capacity];
        slots = new int[capacity];
        Arrays.fill(slots, EMPTY);
    }

    private static int home(int hash, int mask) {
        int mixed = hash * 0x9E3779B9; // spreads hashes that differ only in high bits (String hashes of similar keys)
        return (mixed ^ (mixed >>> 16)) & mask;
    }
}
