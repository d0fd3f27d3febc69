package io.sluice.testkit;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a fault test found, event id by event id: the line it prints (the README's fault table is
 * made of these lines) and the numbers it asserts on. {@code stored} holds every stored id as
 * often as it is stored; {@code counted} is the sum of the aggregate counts of those events.
 */
public record DeliveryReport(String fault, int sent, int found, int lost, int storedTwice, long counted) {

    public static DeliveryReport of(String fault, Collection<String> sent, Collection<String> stored, long counted) {
        Map<String, Integer> copies = new HashMap<>();
        stored.forEach(id -> copies.merge(id, 1, Integer::sum));
        Set<String> expected = new TreeSet<>(sent);
        int found = (int) expected.stream().filter(copies::containsKey).count();
        int storedTwice = (int) copies.values().stream().filter(n -> n > 1).count();
        return new DeliveryReport(fault, expected.size(), found, expected.size() - found, storedTwice, counted);
    }

    /** Counted more often than there are events: some event was counted twice. */
    public long duplicated() {
        return Math.max(0, counted - found) + storedTwice;
    }

    /** Prints the report (the test's output is where the README's numbers come from) and returns it. */
    public DeliveryReport print() {
        System.out.println(this);
        return this;
    }

    @Override
    public String toString() {
        return "delivery report (" + fault + "): sent " + sent + ", found " + found + ", lost " + lost
                + ", duplicated " + duplicated() + " (counted " + counted + ")";
    }
}
