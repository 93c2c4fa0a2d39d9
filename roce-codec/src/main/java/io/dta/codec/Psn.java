package io.dta.codec;

/**
 * 24-bit packet sequence number arithmetic (wraps modulo 2^24).
 */
public final class Psn
{
    /** Mask of the 24 PSN bits. */
    public static final int MASK = 0xFF_FFFF;

    private Psn()
    {
    }

    /**
     * @param psn a PSN.
     * @return the following PSN.
     */
    public static int next(final int psn)
    {
        return (psn + 1) & MASK;
    }

    /**
     * @param psn   a PSN.
     * @param delta signed amount to add.
     * @return psn + delta modulo 2^24.
     */
    public static int add(final int psn, final int delta)
    {
        return (psn + delta) & MASK;
    }

    /**
     * Serial-number comparison in the 24-bit space: the difference shifted into the top of an int gives its sign.
     *
     * @param a a PSN.
     * @param b a PSN.
     * @return negative if a is before b, 0 if equal, positive if a is after b (within half the space).
     */
    public static int compare(final int a, final int b)
    {
        return (a - b) << 8;
    }

    /**
     * @param from a PSN.
     * @param to   a PSN.
     * @return how many steps forward from {@code from} to {@code to}, 0 .. 2^24 - 1.
     */
    public static int distance(final int from, final int to)
    {
        return (to - from) & MASK;
    }
}
