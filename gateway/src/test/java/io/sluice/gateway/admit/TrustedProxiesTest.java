package io.sluice.gateway.admit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;

import org.junit.jupiter.api.Test;

class TrustedProxiesTest {
    private static final TrustedProxies PROXIES = TrustedProxies.parse("10.0.0.0/8, 192.168.1.7, fd00::/8");

    @Test
    void aForwardedClientFromAnUntrustedPeerIsIgnoredAndSaysSo() {
        assertTrue(TrustedProxies.NONE.ignoresForwarding(ip("10.1.2.3"), List.of("203.0.113.9")),
                "a balancer missing from the trusted blocks: every client behind it is the balancer");
        assertTrue(PROXIES.ignoresForwarding(ip("203.0.113.5"), List.of("198.51.100.1")));
        assertFalse(PROXIES.ignoresForwarding(ip("10.1.2.3"), List.of("203.0.113.9")), "a trusted proxy's header is used");
        assertFalse(TrustedProxies.NONE.ignoresForwarding(ip("203.0.113.5"), List.of()), "no header, nothing ignored");
        assertFalse(TrustedProxies.NONE.ignoresForwarding(null, List.of("203.0.113.9")));
    }

    @Test
    void aCidrContainsExactlyTheAddressesOfItsPrefix() {
        Cidr block = Cidr.parse("10.1.0.0/16");
        assertTrue(block.contains(ip("10.1.0.0")));
        assertTrue(block.contains(ip("10.1.255.255")));
        assertFalse(block.contains(ip("10.2.0.0")));
        assertFalse(block.contains(ip("10.0.255.255")));
    }

    @Test
    void aCidrWithAnOddPrefixAndHostBitsSetIsMaskedToItsNetwork() {
        Cidr block = Cidr.parse("172.16.5.9/12");
        assertEquals("172.16.0.0/12", block.toString());
        assertTrue(block.contains(ip("172.31.255.255")));
        assertFalse(block.contains(ip("172.32.0.0")));
    }

    @Test
    void anIpv6CidrMatchesIpv6OnlyAndABareAddressIsABlockOfOne() {
        Cidr block = Cidr.parse("2001:db8::/32");
        assertTrue(block.contains(ip("2001:db8:ffff::1")));
        assertFalse(block.contains(ip("2001:db9::1")));
        assertFalse(block.contains(ip("32.1.13.184")), "the same leading bytes as IPv4 are another address");
        Cidr one = Cidr.parse("::1");
        assertTrue(one.contains(ip("::1")));
        assertFalse(one.contains(ip("::2")));
        assertTrue(Cidr.parse("0.0.0.0/0").contains(ip("203.0.113.7")));
    }

    @Test
    void notACidrFailsAtStartupWithoutALookup() {
        assertThrows(IllegalArgumentException.class, () -> Cidr.parse("proxy.example.com"));
        assertThrows(IllegalArgumentException.class, () -> Cidr.parse("10.0.0.0/33"));
        assertThrows(IllegalArgumentException.class, () -> Cidr.parse("10.0.0.0/x"));
        assertThrows(IllegalArgumentException.class, () -> TrustedProxies.parse("10.0.0.0/8,nonsense"));
    }

    @Test
    void fromATrustedPeerTheRightMostUntrustedAddressIsTheClient() {
        assertEquals(ip("198.51.100.9"), PROXIES.clientOf(ip("10.0.0.1"),
                List.of("203.0.113.7, 198.51.100.9, 10.9.9.9, 192.168.1.7")));
    }

    @Test
    void fromATrustedPeerSeveralHeadersAreOneListInOrder() {
        assertEquals(ip("198.51.100.9"), PROXIES.clientOf(ip("10.0.0.1"), List.of("203.0.113.7, 198.51.100.9", "10.9.9.9")));
    }

    @Test
    void fromATrustedPeerIpv6HopsAreReadWithOrWithoutBracketsAndPorts() {
        assertEquals(ip("2001:db8::7"), PROXIES.clientOf(ip("fd00::1"), List.of("2001:db8::1, 2001:db8::7, fd12::3")));
        assertEquals(ip("2001:db8::7"), PROXIES.clientOf(ip("fd00::1"), List.of("[2001:db8::7]:4711")));
        assertEquals(ip("198.51.100.9"), PROXIES.clientOf(ip("fd00::1"), List.of("198.51.100.9:4711")));
    }

    @Test
    void fromAnUntrustedPeerTheHeaderIsIgnored() {
        assertEquals(ip("203.0.113.50"), PROXIES.clientOf(ip("203.0.113.50"), List.of("198.51.100.9")));
        assertEquals(ip("2001:db8::50"), PROXIES.clientOf(ip("2001:db8::50"), List.of("198.51.100.9")));
        assertEquals(ip("10.0.0.1"), TrustedProxies.parse("").clientOf(ip("10.0.0.1"), List.of("198.51.100.9")),
                "no trusted proxies: nobody's header counts");
    }

    @Test
    void withoutAHeaderOrWithAnUnreadableHopTheLastTrustedHopIsTheClient() {
        assertEquals(ip("10.0.0.1"), PROXIES.clientOf(ip("10.0.0.1"), List.of()));
        assertEquals(ip("10.9.9.9"), PROXIES.clientOf(ip("10.0.0.1"), List.of("198.51.100.9, unknown, 10.9.9.9")));
        assertEquals(ip("10.0.0.1"), PROXIES.clientOf(ip("10.0.0.1"), List.of("")));
    }

    @Test
    void whenEveryHopIsATrustedProxyTheLeftMostIsTheClient() {
        assertEquals(ip("10.2.2.2"), PROXIES.clientOf(ip("10.0.0.1"), List.of("10.2.2.2, 10.3.3.3")));
    }

    @Test
    void ipv6ClientsCountByTheirSlash64AndIpv4ByTheirAddress() {
        assertEquals(ip("2001:db8:1:2::"), ClientKey.of(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd")));
        assertEquals(ClientKey.of(ip("2001:db8:1:2::1")), ClientKey.of(ip("2001:db8:1:2::2")));
        assertEquals(ip("203.0.113.7"), ClientKey.of(ip("203.0.113.7")));
    }

    private static InetAddress ip(String literal) {
        InetAddress address = TrustedProxies.literal(literal);
        if (address == null) {
            throw new IllegalArgumentException(literal);
        }
        return address;
    }
}
