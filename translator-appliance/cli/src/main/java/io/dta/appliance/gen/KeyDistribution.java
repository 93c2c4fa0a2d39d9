package io.dta.appliance.gen;

import java.util.Locale;

/**
 * How report keys (Key-Write, Key-Increment, postcard flow IDs) are drawn from the key space 0..K-1.
 */
public enum KeyDistribution
{
    /** 0, 1, 2, ..., K-1, 0, ...: one counter shared by every keyed primitive. */
    SEQUENTIAL("sequential"),
    /** Independent and uniform over 0..K-1. */
    UNIFORM("uniform"),
    /** Zipf over ranks 1..K with exponent s; rank r is key r-1, so key 0 is the hottest. */
    ZIPF("zipf");

    private final String cliName;

    KeyDistribution(final String cliName)
    {
        this.cliName = cliName;
    }

    /**
     * @return the name used on the command line.
     */
    public String cliName()
    {
        return cliName;
    }

    /**
     * @param name a command-line name, case-insensitive.
     * @return the distribution, or null if unknown.
     */
    public static KeyDistribution byCliName(final String name)
    {
        final String normalised = name.trim().toLowerCase(Locale.ROOT);
        for (final KeyDistribution distribution : values())
        {
            if (distribution.cliName.equals(normalised))
            {
                return distribution;
            }
        }
        return null;
    }
}
