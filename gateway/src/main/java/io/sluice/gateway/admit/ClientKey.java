package io.sluice.gateway.admit;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * What per-client limits count under: an IPv4 address as it is; an IPv6 address by its /64,
 * the block one subscriber (one home, one phone) gets whole, so hopping through its addresses
 * does not make new clients.
 */
public final class ClientKey {
    private static final int IPV6_SUBSCRIBER_PREFIX = 64;

    private ClientKey() {
    }

    public static InetAddress of(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return address;
        }
        try {
            return InetAddress.getByAddress(Cidr.masked(address.getAddress(), IPV6_SUBSCRIBER_PREFIX));
        } catch (UnknownHostException impossible) {
            return address;
        }
    }
}
