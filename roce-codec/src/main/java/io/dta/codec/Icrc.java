package io.dta.codec;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * RoCEv2 Invariant CRC over IPv4 (rocev2-reference §2): CRC-32 of 8 x 0xFF, the 20-byte IPv4 header with TOS,
 * TTL and checksum masked to ones, the UDP header with its checksum masked, the BTH with byte 4 masked, then every
 * byte up to the ICRC; written least-significant byte first.
 * <p>
 * The frame is neither copied nor modified: the 40 header bytes are read as five little-endian longs and the
 * masks are applied in registers, then fed to {@link Crc32Register} (slicing-by-8), which for frames of this size
 * costs less than one call of the JDK's CRC intrinsic (see docs/performance.md). The constant 8-byte LRH stand-in
 * is folded into a precomputed starting register. Works the same for every buffer backing.
 * <p>
 * Only IPv4 headers with IHL 5 are verifiable: RoCEv2 stacks put exactly 20 IP bytes into the pseudo-header.
 * <p>
 * Stateless; instances exist for API compatibility and are safe to share.
 */
public final class Icrc
{
    /** Length of the ICRC trailer. */
    public static final int LENGTH = 4;
    /** Bytes of IPv4 + UDP + BTH headers that are masked. */
    public static final int MASKED_HEADER_LENGTH = Ipv4Flyweight.MIN_HEADER_LENGTH + UdpFlyweight.HEADER_LENGTH +
        BthFlyweight.LENGTH;
    /** CRC-32 over (masked input || correct ICRC bytes) for any good packet. */
    public static final long RESIDUE = 0x2144DF1CL;

    /** The CRC register after the 8 bytes of 0xFF that stand in for the LRH. */
    public static final int REGISTER_AFTER_LRH = Crc32Register.updateLong(Crc32Register.INITIAL, -1L);

    /**
     * Masks of the 40 header bytes as little-endian longs over IPv4 bytes 0-7 (TOS), 8-15 (TTL, checksum),
     * 16-23 (none), 24-31 (UDP checksum) and 32-39 (BTH byte 4).
     */
    static final long MASK_IP_0 = 0x0000_0000_0000_FF00L;
    static final long MASK_IP_8 = 0x0000_0000_FFFF_00FFL;
    static final long MASK_UDP_4 = 0x0000_0000_FFFF_0000L;
    static final long MASK_BTH_4 = 0x0000_0000_0000_00FFL;

    private static final int MIN_FRAME_FROM_IP = MASKED_HEADER_LENGTH + LENGTH;

    /**
     * Creates an ICRC calculator (stateless: one may be shared).
     */
    public Icrc()
    {
    }

    /**
     * Compute the ICRC value of an IPv4 RoCEv2 packet. The caller guarantees IHL 5 and
     * {@code icrcOffset >= ipOffset + 40}.
     *
     * @param frame      the frame.
     * @param ipOffset   offset of the IPv4 header.
     * @param icrcOffset offset of the ICRC (the end of the covered bytes).
     * @return the CRC-32 value ({@code CRC32.getValue()} narrowed to int).
     */
    public int compute(final DirectBuffer frame, final int ipOffset, final int icrcOffset)
    {
        return computeIcrc(frame, ipOffset, icrcOffset);
    }

    /**
     * Static form of {@link #compute(DirectBuffer, int, int)}.
     *
     * @param frame      the frame.
     * @param ipOffset   offset of the IPv4 header (IHL 5).
     * @param icrcOffset offset of the ICRC, at least {@code ipOffset + 40}.
     * @return the CRC-32 value ({@code CRC32.getValue()} narrowed to int).
     */
    public static int computeIcrc(final DirectBuffer frame, final int ipOffset, final int icrcOffset)
    {
        return Crc32Register.value(register(frame, ipOffset, icrcOffset));
    }

    /**
     * The CRC register (not yet inverted into a value) after the masked pseudo-header and every byte up to
     * {@code endOffset}: what frame builders precompute for the constant part of their frames.
     *
     * @param frame     the frame.
     * @param ipOffset  offset of the IPv4 header (IHL 5).
     * @param endOffset end of the bytes to cover, at least {@code ipOffset + 40}.
     * @return the register, for {@link Crc32Register}.
     */
    public static int register(final DirectBuffer frame, final int ipOffset, final int endOffset)
    {
        int crc = REGISTER_AFTER_LRH;
        crc = Crc32Register.updateLong(crc, frame.getLong(ipOffset, ByteOrder.LITTLE_ENDIAN) | MASK_IP_0);
        crc = Crc32Register.updateLong(crc, frame.getLong(ipOffset + 8, ByteOrder.LITTLE_ENDIAN) | MASK_IP_8);
        crc = Crc32Register.updateLong(crc, frame.getLong(ipOffset + 16, ByteOrder.LITTLE_ENDIAN));
        crc = Crc32Register.updateLong(crc, frame.getLong(ipOffset + 24, ByteOrder.LITTLE_ENDIAN) | MASK_UDP_4);
        crc = Crc32Register.updateLong(crc, frame.getLong(ipOffset + 32, ByteOrder.LITTLE_ENDIAN) | MASK_BTH_4);
        final int start = ipOffset + MASKED_HEADER_LENGTH;
        return Crc32Register.update(crc, frame, start, endOffset - start);
    }

    /**
     * Compute the ICRC and write it little-endian at {@code icrcOffset}.
     *
     * @param frame      the frame, complete up to the ICRC.
     * @param ipOffset   offset of the IPv4 header (IHL 5).
     * @param icrcOffset offset of the ICRC.
     */
    public void write(final MutableDirectBuffer frame, final int ipOffset, final int icrcOffset)
    {
        frame.putInt(icrcOffset, computeIcrc(frame, ipOffset, icrcOffset), ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Can the ICRC of the datagram at {@code ipOffset} be checked? Requires IPv4 with IHL 5 and room for
     * IP + UDP + BTH + ICRC before {@code frameEnd}.
     *
     * @param frame    the frame.
     * @param ipOffset offset of the IPv4 header.
     * @param frameEnd end of the IP datagram (exclusive; Ethernet padding excluded).
     * @return true if {@link #verify(DirectBuffer, int, int)} can give a meaningful answer.
     */
    public static boolean isVerifiable(final DirectBuffer frame, final int ipOffset, final int frameEnd)
    {
        return ipOffset >= 0 && frameEnd - ipOffset >= MIN_FRAME_FROM_IP && frameEnd <= frame.capacity() &&
            frame.getByte(ipOffset) == 0x45;
    }

    /**
     * Verify the ICRC in the last 4 bytes before {@code frameEnd}.
     *
     * @param frame    the frame.
     * @param ipOffset offset of the IPv4 header.
     * @param frameEnd end of the IP datagram (exclusive; Ethernet padding excluded).
     * @return true if verifiable and correct; false otherwise.
     */
    public boolean verify(final DirectBuffer frame, final int ipOffset, final int frameEnd)
    {
        if (!isVerifiable(frame, ipOffset, frameEnd))
        {
            return false;
        }

        final int icrcOffset = frameEnd - LENGTH;
        return computeIcrc(frame, ipOffset, icrcOffset) == frame.getInt(icrcOffset, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Computes the ICRC of a frame and writes it. Kept from the time when masking happened in the frame itself;
     * now the same as {@link #write}: the frame's other bytes are only read.
     *
     * @param frame      the frame, mutable.
     * @param ipOffset   offset of the IPv4 header.
     * @param icrcOffset offset of the ICRC field.
     */
    public void writeInPlace(final MutableDirectBuffer frame, final int ipOffset, final int icrcOffset)
    {
        frame.putInt(icrcOffset, computeIcrc(frame, ipOffset, icrcOffset), ByteOrder.LITTLE_ENDIAN);
    }
}
