package io.drover.rep.executor.container;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.BitSet;

/**
 * The addresses of the instances' network namespaces: a /30 per instance out of one IPv4 subnet, block {@code i}
 * being host side {@code base + 4i + 1}, instance {@code base + 4i + 2}. Blocks are handed out lowest first and
 * reserved again for adopted instances.
 */
final class Subnet {

    private final int base;

    private final int blocks;

    private final BitSet used = new BitSet();

    private Subnet(int base, int blocks) {
        this.base = base;
        this.blocks = blocks;
    }

    static Subnet parse(String cidr) {
        String[] parts = cidr == null ? new String[0] : cidr.split("/");
        if (parts.length != 2) {
            throw new IllegalArgumentException("subnet must be a.b.c.d/n: " + cidr);
        }
        int prefix = Integer.parseInt(parts[1]);
        if (prefix < 8 || prefix > 30) {
            throw new IllegalArgumentException("subnet prefix must be between /8 and /30: " + cidr);
        }
        try {
            byte[] bytes = InetAddress.getByName(parts[0]).getAddress();
            if (bytes.length != 4) {
                throw new IllegalArgumentException("subnet must be IPv4: " + cidr);
            }
            int address = ((bytes[0] & 0xff) << 24) | ((bytes[1] & 0xff) << 16) | ((bytes[2] & 0xff) << 8)
                    | (bytes[3] & 0xff);
            int mask = prefix == 0 ? 0 : -1 << (32 - prefix);
            return new Subnet(address & mask, 1 << (30 - prefix));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("subnet must be a.b.c.d/n: " + cidr, e);
        }
    }

    synchronized int allocate() {
        int block = used.nextClearBit(0);
        if (block >= blocks) {
            throw new IllegalStateException("no free address block left in the instances' subnet (" + blocks + ")");
        }
        used.set(block);
        return block;
    }

    synchronized void reserve(int block) {
        used.set(block);
    }

    synchronized void release(int block) {
        used.clear(block);
    }

    String hostAddress(int block) {
        return dotted(base + 4 * block + 1);
    }

    String instanceAddress(int block) {
        return dotted(base + 4 * block + 2);
    }

    private static String dotted(int a) {
        return ((a >>> 24) & 0xff) + "." + ((a >>> 16) & 0xff) + "." + ((a >>> 8) & 0xff) + "." + (a & 0xff);
    }
}
