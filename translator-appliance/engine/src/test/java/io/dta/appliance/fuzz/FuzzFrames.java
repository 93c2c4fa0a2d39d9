package io.dta.appliance.fuzz;

import io.dta.codec.Icrc;
import io.dta.codec.Ipv4Flyweight;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;

/**
 * A fuzz input read as a run of frames: each record is a control byte, a big-endian 16-bit length and that many bytes
 * (a last record cut short takes what is left). The control byte's low bit asks for the frame's integrity fields to
 * be made right (IPv4 header checksum, UDP checksum 0, the RoCEv2 ICRC), so that mutations reach what lies behind
 * them instead of dying at a checksum; its other seven bits are how far the clock moves before the frame, in units
 * of {@link #TICK_NANOS}.
 */
final class FuzzFrames
{
    /** Clock step of one unit of the control byte. */
    static final long TICK_NANOS = 10_000;
    /** Largest frame taken. */
    static final int MAX_FRAME = 2048;

    private static final int ETHERNET_HEADER = 14;
    private static final int UDP_HEADER = 8;
    private static final int ROCE_PORT = 4791;
    private static final int BTH_AND_ICRC = 12 + Icrc.LENGTH;

    private final byte[] input;
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[MAX_FRAME]);
    private final Ipv4Flyweight ipv4 = new Ipv4Flyweight();
    private int position;
    private int length;
    private long advanceNanos;

    FuzzFrames(final byte[] input)
    {
        this.input = input;
    }

    /**
     * @return whether a frame is now current.
     */
    boolean next()
    {
        if (position + 1 > input.length)
        {
            return false;
        }
        final int control = input[position] & 0xFF;
        final int declared = position + 3 <= input.length ?
            ((input[position + 1] & 0xFF) << 8) | (input[position + 2] & 0xFF) : 0;
        position = Math.min(position + 3, input.length);
        length = Math.min(Math.min(declared, MAX_FRAME), input.length - position);
        frame.setMemory(0, MAX_FRAME, (byte)0);
        frame.putBytes(0, input, position, length);
        position += length;
        advanceNanos = (control >>> 1) * TICK_NANOS;
        if (0 != (control & 1))
        {
            fixIntegrity();
        }
        return true;
    }

    UnsafeBuffer frame()
    {
        return frame;
    }

    int length()
    {
        return length;
    }

    long advanceNanos()
    {
        return advanceNanos;
    }

    /**
     * An untagged IPv4 UDP frame gets a right header checksum and a zero UDP checksum, and a RoCEv2 one its ICRC;
     * any other frame stays as it is.
     */
    private void fixIntegrity()
    {
        if (length < ETHERNET_HEADER + Ipv4Flyweight.MIN_HEADER_LENGTH + UDP_HEADER ||
            0x0800 != (frame.getShort(12, ByteOrder.BIG_ENDIAN) & 0xFFFF) || 0x45 != frame.getByte(ETHERNET_HEADER) ||
            17 != frame.getByte(ETHERNET_HEADER + 9))
        {
            return;
        }
        ipv4.wrap(frame, ETHERNET_HEADER);
        ipv4.updateChecksum();
        final int udp = ETHERNET_HEADER + Ipv4Flyweight.MIN_HEADER_LENGTH;
        frame.putShort(udp + 6, (short)0);
        final int end = Math.min(length, ETHERNET_HEADER + ipv4.totalLength());
        if (ROCE_PORT == (frame.getShort(udp + 2, ByteOrder.BIG_ENDIAN) & 0xFFFF) &&
            end >= udp + UDP_HEADER + BTH_AND_ICRC)
        {
            frame.putInt(end - Icrc.LENGTH, Icrc.computeIcrc(frame, ETHERNET_HEADER, end - Icrc.LENGTH),
                ByteOrder.LITTLE_ENDIAN);
        }
    }
}
