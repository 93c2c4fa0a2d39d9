package io.dta.codec.pcap;

import static io.dta.codec.pcap.PcapngFormat.TSRESOL_BASE2_FLAG;

import java.util.Arrays;

/**
 * The interfaces of the current pcapng section, in the order their Interface Description Blocks came (a packet
 * block names its interface by that index), and the conversion of their timestamps to nanoseconds. Grows when a
 * section defines more interfaces than any before it; nothing is allocated per packet.
 */
final class PcapngInterfaces
{
    private static final int INITIAL_CAPACITY = 4;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;
    private static final long[] POWERS_OF_TEN = new long[19];
    /** 10^19 does not fit a signed long but does fit an unsigned one, which is how it is used. */
    private static final long TEN_POW_19_UNSIGNED = Long.parseUnsignedLong("10000000000000000000");

    static
    {
        POWERS_OF_TEN[0] = 1;
        for (int i = 1; i < POWERS_OF_TEN.length; i++)
        {
            POWERS_OF_TEN[i] = POWERS_OF_TEN[i - 1] * 10;
        }
    }

    private int count;
    private int[] linkType = new int[0];
    private int[] snapLength = new int[0];
    private int[] tsresol = new int[0];
    private int[] fcsLength = new int[0];
    private long[] offsetNanos = new long[0];
    private long[] blockOffset = new long[0];

    /**
     * A new section starts: its interfaces are numbered from 0 again.
     */
    void clear()
    {
        count = 0;
    }

    /**
     * @return interfaces defined in the current section.
     */
    int count()
    {
        return count;
    }

    /**
     * Define the next interface of the section.
     *
     * @param linkTypeField the IDB's link type.
     * @param snap          the IDB's snap length (0: no limit).
     * @param resolution    its {@code if_tsresol} byte.
     * @param fcs           its {@code if_fcslen} (0: no FCS).
     * @param offset        its {@code if_tsoffset} in nanoseconds.
     * @param atByte        file offset of the IDB, for messages.
     */
    void add(
        final int linkTypeField, final long snap, final int resolution, final int fcs, final long offset,
        final long atByte)
    {
        if (count == linkType.length)
        {
            final int capacity = Math.max(INITIAL_CAPACITY, count * 2);
            linkType = Arrays.copyOf(linkType, capacity);
            snapLength = Arrays.copyOf(snapLength, capacity);
            tsresol = Arrays.copyOf(tsresol, capacity);
            fcsLength = Arrays.copyOf(fcsLength, capacity);
            offsetNanos = Arrays.copyOf(offsetNanos, capacity);
            blockOffset = Arrays.copyOf(blockOffset, capacity);
        }
        final int id = count++;
        linkType[id] = linkTypeField;
        snapLength[id] = (int)Math.min(snap, Integer.MAX_VALUE);
        tsresol[id] = resolution;
        fcsLength[id] = fcs;
        offsetNanos[id] = offset;
        blockOffset[id] = atByte;
    }

    int linkType(final int id)
    {
        return linkType[id];
    }

    int snapLength(final int id)
    {
        return snapLength[id];
    }

    int tsresol(final int id)
    {
        return tsresol[id];
    }

    int fcsLength(final int id)
    {
        return fcsLength[id];
    }

    long offsetNanos(final int id)
    {
        return offsetNanos[id];
    }

    long blockOffset(final int id)
    {
        return blockOffset[id];
    }

    /**
     * @param resolution an {@code if_tsresol} byte.
     * @return whether it resolves nanoseconds or finer (10^-9 or 2^-30 and below).
     */
    static boolean nanosecondOrFiner(final int resolution)
    {
        return 0 == (resolution & TSRESOL_BASE2_FLAG) ? resolution >= 9 : (resolution & 0x7F) >= 30;
    }

    /**
     * Convert a pcapng timestamp in an interface's units to nanoseconds, rounding down when the units are finer.
     *
     * @param units      timestamp as an unsigned 64-bit count of the interface's units.
     * @param resolution the interface's {@code if_tsresol} byte.
     * @return nanoseconds, or -1 if the result does not fit a signed long.
     */
    static long unitsToNanos(final long units, final int resolution)
    {
        final int exponent = resolution & 0x7F;
        if (0 == (resolution & TSRESOL_BASE2_FLAG))
        {
            if (exponent <= 9)
            {
                final long factor = POWERS_OF_TEN[9 - exponent];
                return Long.compareUnsigned(units, Long.MAX_VALUE / factor) > 0 ? -1 : units * factor;
            }

            final int divisorExponent = exponent - 9;
            if (divisorExponent > 19)
            {
                return 0;
            }
            final long divisor = 19 == divisorExponent ? TEN_POW_19_UNSIGNED : POWERS_OF_TEN[divisorExponent];
            return Long.divideUnsigned(units, divisor);
        }

        // floor(units * 10^9 / 2^exponent) over the full 128-bit product.
        final long high = Math.unsignedMultiplyHigh(units, NANOS_PER_SECOND);
        final long low = units * NANOS_PER_SECOND;
        if (0 == exponent)
        {
            return 0 != high || low < 0 ? -1 : low;
        }
        if (exponent >= 64)
        {
            return high >>> (exponent - 64);
        }
        if (0 != (high >>> exponent))
        {
            return -1;
        }
        final long result = (high << (64 - exponent)) | (low >>> exponent);
        return result < 0 ? -1 : result;
    }
}
