package io.dta.appliance.cli;

import io.dta.config.FileErrors;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The keys of a {@code dta query} subcommand: {@code --key K} (repeatable) or {@code --keys FILE} (one per line,
 * blank lines and {@code #} comments skipped), decimal or 0x-hex, parsed into a plain array (a file of millions of
 * keys is read line by line, without boxing).
 */
final class QueryKeys
{
    private QueryKeys()
    {
    }

    /**
     * Collects the keys of {@code --key} and {@code --keys}, or prints why not.
     *
     * @return the keys, or null after an error message.
     */
    static long[] keys(final String command, final List<String> keys, final Path keysFile)
    {
        if ((null == keys || keys.isEmpty()) == (null == keysFile))
        {
            System.err.println("dta query " + command + ": give --key K (repeatable) or --keys FILE");
            return null;
        }
        final KeyList out = new KeyList();
        if (null == keysFile)
        {
            for (final String t : keys)
            {
                if (!out.add(command, t))
                {
                    return null;
                }
            }
            return out.toArray();
        }
        try (BufferedReader reader = Files.newBufferedReader(keysFile, StandardCharsets.UTF_8))
        {
            for (String line = reader.readLine(); null != line; line = reader.readLine())
            {
                final String t = line.strip();
                if (!t.isEmpty() && !t.startsWith("#") && !out.add(command, t))
                {
                    return null;
                }
            }
        }
        catch (final IOException ex)
        {
            System.err.println("dta query " + command + ": " + FileErrors.cannotRead(keysFile, ex));
            return null;
        }
        return out.toArray();
    }

    /**
     * Parsed keys, growing.
     */
    private static final class KeyList
    {
        private long[] keys = new long[16];
        private int size;

        boolean add(final String command, final String text)
        {
            final long k = QueryCommand.parseU32(text);
            if (k < 0)
            {
                System.err.println("dta query " + command + ": not a 32-bit key (decimal or 0x-hex): " + text);
                return false;
            }
            if (size == keys.length)
            {
                keys = Arrays.copyOf(keys, size * 2);
            }
            keys[size++] = k;
            return true;
        }

        long[] toArray()
        {
            return Arrays.copyOf(keys, size);
        }
    }
}
