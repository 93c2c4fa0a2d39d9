package io.dta.appliance.gen;

import io.dta.codec.Ipv4Address;

import java.util.Arrays;
import java.util.Locale;

/**
 * The text forms of the generator's settings, as {@code dta gen} takes them on its command line, parsed; a text that
 * does not parse is refused with a {@link GeneratorSettingsException} naming the option.
 */
final class SettingsText
{
    private SettingsText()
    {
    }

    /**
     * @param text e.g. {@code keywrite=40,append=30,keyincrement=20,postcard=10}; weights are relative.
     * @return the weight of each primitive, by ordinal (0 for a primitive not named).
     */
    static int[] mixWeights(final String text)
    {
        final int[] weights = new int[Primitive.values().length];
        final boolean[] named = new boolean[weights.length];
        long total = 0;
        for (final String part : text.split(","))
        {
            final String trimmed = part.trim();
            if (trimmed.isEmpty())
            {
                continue;
            }
            final int eq = trimmed.indexOf('=');
            if (eq < 0)
            {
                throw new GeneratorSettingsException("--mix", "'" + trimmed + "' is not NAME=WEIGHT");
            }
            final Primitive primitive = Primitive.byCliName(trimmed.substring(0, eq));
            if (null == primitive)
            {
                throw new GeneratorSettingsException("--mix", "unknown primitive '" + trimmed.substring(0, eq) +
                    "' (keywrite, append, keyincrement, postcard, sketch)");
            }
            final int weight = weight(primitive, trimmed.substring(eq + 1));
            if (named[primitive.ordinal()])
            {
                // The last weight would win silently, and a later 0 could even cancel the only positive one.
                throw new GeneratorSettingsException("--mix", primitive.cliName() + " is named twice");
            }
            named[primitive.ordinal()] = true;
            weights[primitive.ordinal()] = weight;
            total += weight;
        }
        if (total == 0)
        {
            throw new GeneratorSettingsException("--mix", "at least one primitive needs a positive weight");
        }
        return weights;
    }

    private static int weight(final Primitive primitive, final String text)
    {
        final int weight;
        try
        {
            weight = Integer.parseInt(text.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new GeneratorSettingsException("--mix", "weight of " + primitive.cliName() +
                " must be a non-negative integer, not '" + text + "'");
        }
        if (weight < 0 || weight > 1_000_000)
        {
            throw new GeneratorSettingsException("--mix", "weight of " + primitive.cliName() +
                " must be between 0 and 1000000, not " + weight);
        }
        return weight;
    }

    /**
     * @param text {@code N} or {@code MIN-MAX}.
     * @return {min, max}.
     */
    static int[] redundancy(final String text)
    {
        final String trimmed = text.trim();
        final int dash = trimmed.indexOf('-', 1);
        try
        {
            if (dash < 0)
            {
                final int n = Integer.parseInt(trimmed);
                return new int[] { n, n };
            }
            return new int[] {
                Integer.parseInt(trimmed.substring(0, dash).trim()),
                Integer.parseInt(trimmed.substring(dash + 1).trim()) };
        }
        catch (final NumberFormatException ex)
        {
            throw new GeneratorSettingsException("--redundancy", "must be N or MIN-MAX, not '" + text + "'");
        }
    }

    /**
     * @param option the option, for the message.
     * @param text   comma-separated numbers, decimal or 0x-hex; blank ones skipped.
     * @return the numbers.
     */
    static long[] numbers(final String option, final String text)
    {
        final String[] parts = text.split(",");
        final long[] ids = new long[parts.length];
        int count = 0;
        for (final String part : parts)
        {
            if (!part.isBlank())
            {
                ids[count++] = number(option, part);
            }
        }
        return Arrays.copyOf(ids, count);
    }

    /**
     * @param text comma-separated dotted-quad addresses; blank ones skipped.
     * @return the addresses.
     */
    static int[] collectorIps(final String text)
    {
        final String[] parts = text.split(",");
        final int[] ips = new int[parts.length];
        int count = 0;
        for (final String part : parts)
        {
            if (part.isBlank())
            {
                continue;
            }
            try
            {
                ips[count++] = Ipv4Address.parse(part.trim());
            }
            catch (final RuntimeException ex)
            {
                throw new GeneratorSettingsException("--collector", "'" + part.trim() + "' is not an IPv4 address");
            }
        }
        return Arrays.copyOf(ips, count);
    }

    /**
     * @param option     the option, for the message.
     * @param value      a fraction.
     * @param oneAllowed whether 1 itself is allowed.
     * @return the value, checked.
     */
    static double fraction(final String option, final double value, final boolean oneAllowed)
    {
        if (!(value >= 0.0 && (oneAllowed ? value <= 1.0 : value < 1.0)))
        {
            throw new GeneratorSettingsException(option, "must be a fraction " + (oneAllowed ? "0..1" : "0 <= f < 1") +
                ", not " + value);
        }
        return value;
    }

    private static long number(final String option, final String text)
    {
        final String trimmed = text.trim().toLowerCase(Locale.ROOT);
        try
        {
            return trimmed.startsWith("0x") ? Long.parseLong(trimmed.substring(2), 16) : Long.parseLong(trimmed);
        }
        catch (final NumberFormatException ex)
        {
            throw new GeneratorSettingsException(option, "'" + text.trim() + "' is not a number");
        }
    }
}
