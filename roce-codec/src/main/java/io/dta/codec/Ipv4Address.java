package io.dta.codec;

/**
 * Conversions between dotted-quad IPv4 text and the {@code int} representation (network order, first octet in
 * the most significant byte).
 * <p>
 * Control-path helper: {@link #format(int)} allocates a string.
 */
public final class Ipv4Address
{
    private Ipv4Address()
    {
    }

    /**
     * Parse a dotted-quad address such as {@code 10.0.0.101}.
     *
     * @param text the address text.
     * @return the address as an int, first octet most significant.
     * @throws IllegalArgumentException if the text is not a valid dotted quad.
     */
    public static int parse(final CharSequence text)
    {
        if (null == text)
        {
            throw new IllegalArgumentException("null IPv4 address");
        }

        int value = 0;
        int octets = 0;
        int current = -1;
        final int length = text.length();
        for (int i = 0; i <= length; i++)
        {
            final char c = i < length ? text.charAt(i) : '.';
            if (c == '.')
            {
                if (current < 0 || octets == 4)
                {
                    throw new IllegalArgumentException("invalid IPv4 address: " + text);
                }
                value = (value << 8) | current;
                octets++;
                current = -1;
            }
            else if (c >= '0' && c <= '9')
            {
                current = (current < 0 ? 0 : current * 10) + (c - '0');
                if (current > 255)
                {
                    throw new IllegalArgumentException("invalid IPv4 address: " + text);
                }
            }
            else
            {
                throw new IllegalArgumentException("invalid IPv4 address: " + text);
            }
        }

        if (octets != 4)
        {
            throw new IllegalArgumentException("invalid IPv4 address: " + text);
        }

        return value;
    }

    /**
     * Format an address as a dotted quad.
     *
     * @param address the address, first octet most significant.
     * @return the text form.
     */
    public static String format(final int address)
    {
        return ((address >>> 24) & 0xFF) + "." + ((address >>> 16) & 0xFF) + "." +
            ((address >>> 8) & 0xFF) + "." + (address & 0xFF);
    }
}
