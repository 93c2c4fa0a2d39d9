package io.dta.codec;

/**
 * Conversions between the textual form of a 48-bit MAC address ({@code 02:00:0a:00:00:65}) and its {@code long}
 * representation (the six bytes in network order in the low 48 bits).
 * <p>
 * Control-path helper: {@link #format(long)} allocates a string.
 */
public final class MacAddress
{
    /** Mask of the 48 significant bits. */
    public static final long MASK = 0xFFFF_FFFF_FFFFL;

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private MacAddress()
    {
    }

    /**
     * Parse a MAC address written as six two-digit hex groups separated by {@code ':'} or {@code '-'}.
     *
     * @param text the address text.
     * @return the address in the low 48 bits.
     * @throws IllegalArgumentException if the text is not a valid MAC address.
     */
    public static long parse(final CharSequence text)
    {
        if (null == text || text.length() != 17)
        {
            throw new IllegalArgumentException("invalid MAC address: " + text);
        }

        long value = 0;
        for (int i = 0; i < 6; i++)
        {
            final int pos = i * 3;
            if (i > 0)
            {
                final char sep = text.charAt(pos - 1);
                if (sep != ':' && sep != '-')
                {
                    throw new IllegalArgumentException("invalid MAC address: " + text);
                }
            }
            final int hi = Character.digit(text.charAt(pos), 16);
            final int lo = Character.digit(text.charAt(pos + 1), 16);
            if (hi < 0 || lo < 0)
            {
                throw new IllegalArgumentException("invalid MAC address: " + text);
            }
            value = (value << 8) | (hi << 4) | lo;
        }

        return value;
    }

    /**
     * Format the low 48 bits as {@code xx:xx:xx:xx:xx:xx} in lower-case hex.
     *
     * @param mac the address.
     * @return the text form.
     */
    public static String format(final long mac)
    {
        final char[] chars = new char[17];
        for (int i = 0; i < 6; i++)
        {
            final int b = (int)(mac >>> (40 - 8 * i)) & 0xFF;
            final int pos = i * 3;
            chars[pos] = HEX[b >>> 4];
            chars[pos + 1] = HEX[b & 0xF];
            if (i < 5)
            {
                chars[pos + 2] = ':';
            }
        }

        return new String(chars);
    }
}
