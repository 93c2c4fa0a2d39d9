package io.dta.config;

import java.math.BigInteger;
import java.util.Locale;
import java.util.Set;

/**
 * Text of configuration values and keys: how a value is shown in a message, integers as the schema writes them
 * (decimal or 0x-hex), and the suggestion for a misspelt key.
 */
final class ConfigText
{
    private ConfigText()
    {
    }

    static String hex(final long value, final int digits)
    {
        final String h = Long.toHexString(value);
        return "0x" + "0".repeat(Math.max(0, digits - h.length())) + h;
    }

    static int editDistance(final String a, final String b)
    {
        final int[] previous = new int[b.length() + 1];
        final int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++)
        {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++)
            {
                final int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
            }
            System.arraycopy(current, 0, previous, 0, current.length);
        }
        return previous[b.length()];
    }

    static String suggest(final String key, final Set<String> known)
    {
        final String normalised = normalise(key);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String candidate : known)
        {
            final int distance = editDistance(normalised, normalise(candidate));
            if (distance < bestDistance)
            {
                best = candidate;
                bestDistance = distance;
            }
        }
        final int allowed = normalised.length() <= 4 ? 1 : 2;
        return bestDistance <= allowed ? best : null;
    }

    private static String normalise(final String key)
    {
        return key.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    }

    /**
     * A scalar as written, for messages about its value (as opposed to its type).
     */
    static String text(final ConfigNode node)
    {
        // An empty (or blank) value would vanish from "translator.mac:  is not a MAC address"; quoted it shows.
        return node instanceof ConfigNode.ScalarNode scalar ?
            (scalar.text().isBlank() ? "\"" + ShortText.of(scalar.text()) + "\"" : ShortText.of(scalar.text())) :
            ConfigNode.describe(node);
    }

    static BigInteger parseInteger(final String text)
    {
        if (text.length() > 2 && text.charAt(0) == '0' && (text.charAt(1) == 'x' || text.charAt(1) == 'X'))
        {
            for (int i = 2; i < text.length(); i++)
            {
                if (Character.digit(text.charAt(i), 16) < 0)
                {
                    return null;
                }
            }
            return new BigInteger(text.substring(2), 16);
        }
        final int start = text.startsWith("-") ? 1 : 0;
        if (text.length() == start)
        {
            return null;
        }
        for (int i = start; i < text.length(); i++)
        {
            if (text.charAt(i) < '0' || text.charAt(i) > '9')
            {
                return null;
            }
        }
        if (text.length() - start > 1 && text.charAt(start) == '0')
        {
            return null;
        }
        return new BigInteger(text);
    }
}
