package io.dta.appliance.engine.worker;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Which worker receives a frame, as a NIC's receive-side scaling would choose the queue: the Toeplitz hash of the
 * IPv4 source and destination addresses and the UDP source and destination ports (in that order, network byte
 * order, as {@code RTE_ETH_RSS_NONFRAG_IPV4_UDP} hashes them) under the 40-byte default key of Microsoft's RSS
 * specification (the one DPDK's drivers use by default), then a 128-entry redirection table filled round-robin
 * ({@code queue = table[hash & 127] = (hash & 127) mod W}, DPDK's default table). A frame that is not IPv4/UDP goes
 * to queue 0, as most NICs send unhashed traffic. So one reporter's reports always reach the same worker.
 * <p>
 * Used where there is no NIC to spread the frames: the demo, the replays, the bench's inputs. No allocation.
 */
public final class RssSpreader
{
    /** Microsoft's default RSS key. */
    private static final byte[] KEY = {
        (byte)0x6d, (byte)0x5a, (byte)0x56, (byte)0xda, (byte)0x25, (byte)0x5b, (byte)0x0e, (byte)0xc2,
        (byte)0x41, (byte)0x67, (byte)0x25, (byte)0x3d, (byte)0x43, (byte)0xa3, (byte)0x8f, (byte)0xb0,
        (byte)0xd0, (byte)0xca, (byte)0x2b, (byte)0xcb, (byte)0xae, (byte)0x7b, (byte)0x30, (byte)0xb4,
        (byte)0x77, (byte)0xcb, (byte)0x2d, (byte)0xa3, (byte)0x80, (byte)0x30, (byte)0xf2, (byte)0x0c,
        (byte)0x6a, (byte)0x42, (byte)0xb7, (byte)0x3b, (byte)0xbe, (byte)0xac, (byte)0x01, (byte)0xfa };
    /** Entries of the redirection table. */
    public static final int RETA_SIZE = 128;
    private static final int ETHERTYPE_IPV4 = 0x0800;
    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88A8;
    private static final int PROTOCOL_UDP = 17;

    /** For each of the 12 input bytes and each byte value, that byte's contribution to the hash. */
    private static final int[][] TABLE = new int[12][256];

    static
    {
        for (int i = 0; i < 12; i++)
        {
            for (int v = 0; v < 256; v++)
            {
                int h = 0;
                for (int bit = 0; bit < 8; bit++)
                {
                    if (0 != (v & (0x80 >>> bit)))
                    {
                        h ^= keyWindow(i * 8 + bit);
                    }
                }
                TABLE[i][v] = h;
            }
        }
    }

    private final int workers;

    /**
     * @param workers how many queues (workers), 1 or more.
     */
    public RssSpreader(final int workers)
    {
        if (workers < 1)
        {
            throw new IllegalArgumentException("workers must be at least 1: " + workers);
        }
        this.workers = workers;
    }

    /** The 32 key bits starting at bit {@code position}. */
    private static int keyWindow(final int position)
    {
        int window = 0;
        for (int b = 0; b < 32; b++)
        {
            final int bit = position + b;
            final int k = (KEY[bit >>> 3] >>> (7 - (bit & 7))) & 1;
            window = (window << 1) | k;
        }
        return window;
    }

    /**
     * The Toeplitz hash of an IPv4/UDP 4-tuple (Microsoft's verification suite gives the expected values).
     *
     * @param srcIp   IPv4 source address.
     * @param dstIp   IPv4 destination address.
     * @param srcPort UDP source port.
     * @param dstPort UDP destination port.
     * @return the hash.
     */
    public static int hash(final int srcIp, final int dstIp, final int srcPort, final int dstPort)
    {
        int h = 0;
        h ^= word(0, srcIp);
        h ^= word(4, dstIp);
        h ^= TABLE[8][(srcPort >>> 8) & 0xFF] ^ TABLE[9][srcPort & 0xFF];
        h ^= TABLE[10][(dstPort >>> 8) & 0xFF] ^ TABLE[11][dstPort & 0xFF];
        return h;
    }

    private static int word(final int at, final int value)
    {
        return TABLE[at][value >>> 24] ^ TABLE[at + 1][(value >>> 16) & 0xFF] ^ TABLE[at + 2][(value >>> 8) & 0xFF] ^
            TABLE[at + 3][value & 0xFF];
    }

    /**
     * @param hash an RSS hash.
     * @return the queue (worker) the default redirection table gives it.
     */
    public int queueOf(final int hash)
    {
        return (hash & (RETA_SIZE - 1)) % workers;
    }

    /**
     * The worker an Ethernet frame goes to (up to two VLAN tags are skipped, as NICs parse them).
     *
     * @param buffer the frame's memory.
     * @param offset where it starts.
     * @param length its length.
     * @return the worker, 0 for anything that is not an unfragmented IPv4/UDP datagram.
     */
    public int workerOf(final DirectBuffer buffer, final int offset, final int length)
    {
        if (1 == workers)
        {
            return 0;
        }
        int at = offset + 12;
        int etherType = length >= 14 ? buffer.getShort(at, ByteOrder.BIG_ENDIAN) & 0xFFFF : 0;
        for (int tags = 0; tags < 2 && (ETHERTYPE_VLAN == etherType || ETHERTYPE_QINQ == etherType); tags++)
        {
            at += 4;
            etherType = at + 2 <= offset + length ? buffer.getShort(at, ByteOrder.BIG_ENDIAN) & 0xFFFF : 0;
        }
        final int ip = at + 2;
        if (ETHERTYPE_IPV4 != etherType || ip + 20 > offset + length)
        {
            return 0;
        }
        final int versionIhl = buffer.getByte(ip) & 0xFF;
        final int ihl = (versionIhl & 0x0F) * 4;
        final int fragment = buffer.getShort(ip + 6, ByteOrder.BIG_ENDIAN) & 0x3FFF;
        if (4 != versionIhl >>> 4 || ihl < 20 || PROTOCOL_UDP != (buffer.getByte(ip + 9) & 0xFF) || 0 != fragment ||
            ip + ihl + 4 > offset + length)
        {
            return 0;
        }
        final int udp = ip + ihl;
        return queueOf(hash(buffer.getInt(ip + 12, ByteOrder.BIG_ENDIAN), buffer.getInt(ip + 16, ByteOrder.BIG_ENDIAN),
            buffer.getShort(udp, ByteOrder.BIG_ENDIAN) & 0xFFFF, buffer.getShort(udp + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF));
    }
}
