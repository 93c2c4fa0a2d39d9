package io.dta.perf;

import io.dta.codec.BthFlyweight;
import io.dta.codec.Ipv4Flyweight;
import io.dta.codec.UdpFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32;

/**
 * The appliance's ICRC as it was before {@code io.dta.codec.Icrc} moved to table-driven CRC in registers, kept here
 * so that the benchmarks can put both side by side in one run. RoCEv2 Invariant CRC over IPv4 (rocev2-reference §2): CRC-32 of 8 x 0xFF, the 20-byte IPv4 header with TOS,
 * TTL and checksum masked to ones, the UDP header with its checksum masked, the BTH with byte 4 masked, then every
 * byte up to the ICRC; written least-significant byte first.
 * <p>
 * The frame is never copied. The constant prefix is fed from a static array, only the 40 masked header bytes are
 * copied into a reusable direct scratch buffer, and the rest is fed to the (intrinsic) {@link CRC32} in place:
 * <ul>
 *     <li>byte-array backed buffers via {@link CRC32#update(byte[], int, int)};</li>
 *     <li>{@link ByteBuffer} backed buffers via a cached {@link ByteBuffer#duplicate()} view, re-created only when
 *     the backing buffer changes, so the steady state allocates nothing;</li>
 *     <li>raw-address buffers (no array, no ByteBuffer) through the scratch buffer in chunks: a documented slow
 *     path, still allocation-free.</li>
 * </ul>
 * Only IPv4 headers with IHL 5 are verifiable: RoCEv2 stacks put exactly 20 IP bytes into the pseudo-header.
 * <p>
 * Not thread-safe: use one instance per thread.
 */
public final class IntrinsicIcrc
{
    /** Length of the ICRC trailer. */
    public static final int LENGTH = 4;
    /** Bytes of IPv4 + UDP + BTH headers that are copied and masked. */
    public static final int MASKED_HEADER_LENGTH = Ipv4Flyweight.MIN_HEADER_LENGTH + UdpFlyweight.HEADER_LENGTH +
        BthFlyweight.LENGTH;
    /** CRC-32 over (masked input || correct ICRC bytes) for any good packet. */
    public static final long RESIDUE = 0x2144DF1CL;

    private static final byte[] MASKED_LRH = { -1, -1, -1, -1, -1, -1, -1, -1 };
    private static final int CHUNK_LENGTH = 256;
    private static final int SLOW_PATH_OFFSET = 64;
    private static final int MIN_FRAME_FROM_IP = MASKED_HEADER_LENGTH + LENGTH;

    private final CRC32 crc = new CRC32();
    private final ByteBuffer scratch = ByteBuffer.allocateDirect(SLOW_PATH_OFFSET + CHUNK_LENGTH);
    private final UnsafeBuffer scratchBuffer = new UnsafeBuffer(scratch);
    private ByteBuffer cachedSource;
    private ByteBuffer cachedView;

    /**
     * Creates an ICRC calculator; not thread-safe, one per thread.
     */
    public IntrinsicIcrc()
    {
        scratchBuffer.putBytes(0, MASKED_LRH);
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
        // The masked LRH stands at the start of the scratch buffer for good, so the masked pseudo-header is
        // one CRC update of 48 bytes and the rest of the frame a second one.
        final int ip = MASKED_LRH.length;
        frame.getBytes(ipOffset, scratchBuffer, ip, MASKED_HEADER_LENGTH);
        scratchBuffer.putByte(ip + Ipv4Flyweight.TOS_OFFSET, (byte)0xFF);
        scratchBuffer.putByte(ip + Ipv4Flyweight.TTL_OFFSET, (byte)0xFF);
        scratchBuffer.putShort(ip + Ipv4Flyweight.CHECKSUM_OFFSET, (short)0xFFFF);
        final int udp = ip + Ipv4Flyweight.MIN_HEADER_LENGTH;
        scratchBuffer.putShort(udp + UdpFlyweight.CHECKSUM_OFFSET, (short)0xFFFF);
        final int bth = udp + UdpFlyweight.HEADER_LENGTH;
        scratchBuffer.putByte(bth + BthFlyweight.FECN_BECN_OFFSET, (byte)0xFF);
        final int start = ipOffset + MASKED_HEADER_LENGTH;
        final int length = icrcOffset - start;
        crc.reset();
        scratch.clear().limit(ip + MASKED_HEADER_LENGTH);
        crc.update(scratch);
        if (length > 0)
        {
            updateInPlace(frame, start, length);
        }

        return (int)crc.getValue();
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
        frame.putInt(icrcOffset, compute(frame, ipOffset, icrcOffset), ByteOrder.LITTLE_ENDIAN);
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
        return compute(frame, ipOffset, icrcOffset) == frame.getInt(icrcOffset, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Computes the ICRC of a frame this process owns and writes it, in one CRC pass over the frame and without
     * copying it: for the duration of the pass the 8 bytes before the IPv4 header (the end of the Ethernet
     * header, which the ICRC does not cover) stand in for the masked LRH and the variant fields are masked in
     * place; then every byte is restored. Needs at least 8 bytes before the IPv4 header (an Ethernet header
     * has 14); otherwise it falls back to {@link #write}.
     *
     * @param frame      the frame, mutable.
     * @param ipOffset   offset of the IPv4 header.
     * @param icrcOffset offset of the ICRC field.
     */
    public void writeInPlace(final MutableDirectBuffer frame, final int ipOffset, final int icrcOffset)
    {
        final int lrhAt = ipOffset - MASKED_LRH.length;
        if (lrhAt < 0)
        {
            write(frame, ipOffset, icrcOffset);
            return;
        }
        final int tosAt = ipOffset + Ipv4Flyweight.TOS_OFFSET;
        final int ttlAt = ipOffset + Ipv4Flyweight.TTL_OFFSET;
        final int checksumAt = ipOffset + Ipv4Flyweight.CHECKSUM_OFFSET;
        final int udpChecksumAt = ipOffset + Ipv4Flyweight.MIN_HEADER_LENGTH + UdpFlyweight.CHECKSUM_OFFSET;
        final int fecnAt = ipOffset + Ipv4Flyweight.MIN_HEADER_LENGTH + UdpFlyweight.HEADER_LENGTH +
            BthFlyweight.FECN_BECN_OFFSET;
        final long lrh = frame.getLong(lrhAt);
        final byte tos = frame.getByte(tosAt);
        final byte ttl = frame.getByte(ttlAt);
        final short checksum = frame.getShort(checksumAt);
        final short udpChecksum = frame.getShort(udpChecksumAt);
        final byte fecn = frame.getByte(fecnAt);
        frame.putLong(lrhAt, -1L);
        frame.putByte(tosAt, (byte)0xFF);
        frame.putByte(ttlAt, (byte)0xFF);
        frame.putShort(checksumAt, (short)0xFFFF);
        frame.putShort(udpChecksumAt, (short)0xFFFF);
        frame.putByte(fecnAt, (byte)0xFF);
        crc.reset();
        updateInPlace(frame, lrhAt, icrcOffset - lrhAt);
        frame.putLong(lrhAt, lrh);
        frame.putByte(tosAt, tos);
        frame.putByte(ttlAt, ttl);
        frame.putShort(checksumAt, checksum);
        frame.putShort(udpChecksumAt, udpChecksum);
        frame.putByte(fecnAt, fecn);
        frame.putInt(icrcOffset, (int)crc.getValue(), ByteOrder.LITTLE_ENDIAN);
    }

    private void updateInPlace(final DirectBuffer frame, final int start, final int length)
    {
        final byte[] array = frame.byteArray();
        if (null != array)
        {
            crc.update(array, frame.wrapAdjustment() + start, length);
            return;
        }

        final ByteBuffer source = frame.byteBuffer();
        if (null != source)
        {
            if (source != cachedSource)
            {
                cachedSource = source;
                cachedView = source.duplicate();
            }
            final int position = frame.wrapAdjustment() + start;
            cachedView.clear().limit(position + length).position(position);
            crc.update(cachedView);
            return;
        }

        // Slow path: a buffer over raw memory has no Java object that CRC32 can read, so copy in chunks.
        int done = 0;
        while (done < length)
        {
            final int chunk = Math.min(CHUNK_LENGTH, length - done);
            frame.getBytes(start + done, scratchBuffer, SLOW_PATH_OFFSET, chunk);
            scratch.clear().limit(SLOW_PATH_OFFSET + chunk).position(SLOW_PATH_OFFSET);
            crc.update(scratch);
            done += chunk;
        }
    }
}
