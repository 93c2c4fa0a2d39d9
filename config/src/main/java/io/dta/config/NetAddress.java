package io.dta.config;

/**
 * Parsing and formatting of MAC and IPv4 addresses as the configuration writes them. A MAC is held in the low 48
 * bits of a {@code long} (first octet most significant), an IPv4 address in an {@code int} (first octet most
 * significant, i.e. network order when written big-endian).
 */
public final class NetAddress
{
    /**
     * Returned by the parse methods for text that is not an address.
     */
    public static final long INVALID = -1L;

    private NetAddress()
    {
    }

    /**
     * Parse {@code aa:bb:cc:dd:ee:ff} (also with {@code -} separators), hex digits in either case.
     *
     * @param text the text.
     * @return the MAC in the low 48 bits, or {@link #INVALID}.
     */
    public static long parseMac(final String text)
    {
        if (text.length() != 17)
        {
            return INVALID;
        }
        final char separator = text.charAt(2);
        if (separator != ':' && separator != '-')
        {
            return INVALID;
        }
        long mac = 0;
        for (int octet = 0; octet < 6; octet++)
        {
            final int at = octet * 3;
            if (octet > 0 && text.charAt(at - 1) != separator)
            {
                return INVALID;
            }
            final int hi = Character.digit(text.charAt(at), 16);
            final int lo = Character.digit(text.charAt(at + 1), 16);
            if (hi < 0 || lo < 0)
            {
                return INVALID;
            }
            mac = (mac << 8) | (hi << 4) | lo;
        }
        return mac;
    }

    /**
     * Parse a dotted-quad IPv4 address, each part 0..255 in decimal without leading zeros (which some tools read
     * as octal).
     *
     * @param text the text.
     * @return the address as an unsigned value in a {@code long}, or {@link #INVALID}.
     */
    public static long parseIpv4(final String text)
    {
        long address = 0;
        int part = 0;
        int digits = 0;
        int value = 0;
        for (int i = 0; i <= text.length(); i++)
        {
            final char c = i < text.length() ? text.charAt(i) : '.';
            if (c == '.')
            {
                if (digits == 0 || part == 4)
                {
                    return INVALID;
                }
                address = (address << 8) | value;
                part++;
                digits = 0;
                value = 0;
            }
            else if (c >= '0' && c <= '9')
            {
                if (digits > 0 && value == 0)
                {
                    return INVALID;
                }
                value = value * 10 + (c - '0');
                digits++;
                if (value > 255)
                {
                    return INVALID;
                }
            }
            else
            {
                return INVALID;
            }
        }
        return part == 4 ? address : INVALID;
    }

    /**
     * Format a MAC as {@code aa:bb:cc:dd:ee:ff}.
     *
     * @param mac the MAC in the low 48 bits.
     * @return the text.
     */
    public static String macToString(final long mac)
    {
        final StringBuilder sb = new StringBuilder(17);
        for (int shift = 40; shift >= 0; shift -= 8)
        {
            final int octet = (int)(mac >>> shift) & 0xFF;
            sb.append(Character.forDigit(octet >>> 4, 16)).append(Character.forDigit(octet & 0xF, 16));
            if (shift > 0)
            {
                sb.append(':');
            }
        }
        return sb.toString();
    }

    /**
     * Format an IPv4 address as a dotted quad.
     *
     * @param ip the address, first octet most significant.
     * @return the text.
     */
    public static String ipv4ToString(final int ip)
    {
        return ((ip >>> 24) & 0xFF) + "." + ((ip >>> 16) & 0xFF) + "." + ((ip >>> 8) & 0xFF) + "." + (ip & 0xFF);
    }
}
