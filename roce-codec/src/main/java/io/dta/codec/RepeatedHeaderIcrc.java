package io.dta.codec;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * ICRC verification for a stream of frames whose headers repeat, such as the responses of one queue pair: the
 * same addresses, ports, lengths, opcode and DestQP frame after frame, with only the IPv4 identification and the
 * BTH's AckReq/PSN word changing among the 40 masked header bytes.
 * <p>
 * The result is always exactly {@link Icrc#verify}'s. The CRC register after the masked header is kept for the
 * last header seen with those six variable bytes zeroed; CRC-32 without its initial value and final inversion is
 * linear, so a frame whose other 34 header bytes are the same gets its header register from the kept one and one
 * table entry per variable byte (six independent lookups), and only the bytes after the BTH (an AETH and an
 * AtomicAckETH: 12 bytes) go through the CRC chain: about two chained steps instead of seven. A frame whose header
 * differs is computed in full and its header kept instead.
 * <p>
 * One instance per stream, used by one thread; it allocates nothing after construction.
 */
public final class RepeatedHeaderIcrc
{
    private static final int HEADER = Icrc.MASKED_HEADER_LENGTH;
    /** IPv4 identification: bytes 4 and 5 of the little-endian word over IPv4 bytes 0-7. */
    private static final long VARIABLE_IN_WORD_0 = 0x0000_FFFF_0000_0000L;
    /** BTH bytes 8-11 (AckReq, reserved, PSN): bytes 4-7 of the word over IPv4 bytes 32-39. */
    private static final long VARIABLE_IN_WORD_4 = 0xFFFF_FFFF_0000_0000L;
    private static final int[] IDENTIFICATION_HIGH = Crc32Register.distanceTable(HEADER - 1 - 4);
    private static final int[] IDENTIFICATION_LOW = Crc32Register.distanceTable(HEADER - 1 - 5);
    private static final int[] BTH_8 = Crc32Register.distanceTable(3);
    private static final int[] BTH_9 = Crc32Register.distanceTable(2);
    private static final int[] BTH_10 = Crc32Register.distanceTable(1);
    private static final int[] BTH_11 = Crc32Register.distanceTable(0);

    private boolean primed;
    private long word0;
    private long word1;
    private long word2;
    private long word3;
    private long word4;
    private int headerRegister;
    private long headerChanges;

    /**
     * Verifies the ICRC in the last 4 bytes before {@code frameEnd}, as {@link Icrc#verify} does.
     *
     * @param frame    the frame.
     * @param ipOffset offset of the IPv4 header.
     * @param frameEnd end of the IP datagram (exclusive; Ethernet padding excluded).
     * @return true if verifiable and correct; false otherwise.
     */
    public boolean verify(final DirectBuffer frame, final int ipOffset, final int frameEnd)
    {
        if (!Icrc.isVerifiable(frame, ipOffset, frameEnd))
        {
            return false;
        }
        final long w0 = frame.getLong(ipOffset, ByteOrder.LITTLE_ENDIAN) | Icrc.MASK_IP_0;
        final long w1 = frame.getLong(ipOffset + 8, ByteOrder.LITTLE_ENDIAN) | Icrc.MASK_IP_8;
        final long w2 = frame.getLong(ipOffset + 16, ByteOrder.LITTLE_ENDIAN);
        final long w3 = frame.getLong(ipOffset + 24, ByteOrder.LITTLE_ENDIAN) | Icrc.MASK_UDP_4;
        final long w4 = frame.getLong(ipOffset + 32, ByteOrder.LITTLE_ENDIAN) | Icrc.MASK_BTH_4;
        final long k0 = w0 & ~VARIABLE_IN_WORD_0;
        final long k4 = w4 & ~VARIABLE_IN_WORD_4;
        if (!primed || k0 != word0 || w1 != word1 || w2 != word2 || w3 != word3 || k4 != word4)
        {
            keep(k0, w1, w2, w3, k4);
        }
        int crc = headerRegister ^
            IDENTIFICATION_HIGH[(int)(w0 >>> 32) & 0xFF] ^ IDENTIFICATION_LOW[(int)(w0 >>> 40) & 0xFF] ^
            BTH_8[(int)(w4 >>> 32) & 0xFF] ^ BTH_9[(int)(w4 >>> 40) & 0xFF] ^
            BTH_10[(int)(w4 >>> 48) & 0xFF] ^ BTH_11[(int)(w4 >>> 56)];
        final int icrcOffset = frameEnd - Icrc.LENGTH;
        final int afterHeader = ipOffset + HEADER;
        crc = Crc32Register.update(crc, frame, afterHeader, icrcOffset - afterHeader);
        return Crc32Register.value(crc) == frame.getInt(icrcOffset, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @return how many times a frame's header differed from the kept one (the first frame included): how often the
     * full computation ran.
     */
    public long headerChanges()
    {
        return headerChanges;
    }

    private void keep(final long k0, final long w1, final long w2, final long w3, final long k4)
    {
        primed = true;
        word0 = k0;
        word1 = w1;
        word2 = w2;
        word3 = w3;
        word4 = k4;
        int crc = Icrc.REGISTER_AFTER_LRH;
        crc = Crc32Register.updateLong(crc, k0);
        crc = Crc32Register.updateLong(crc, w1);
        crc = Crc32Register.updateLong(crc, w2);
        crc = Crc32Register.updateLong(crc, w3);
        headerRegister = Crc32Register.updateLong(crc, k4);
        headerChanges++;
    }
}
