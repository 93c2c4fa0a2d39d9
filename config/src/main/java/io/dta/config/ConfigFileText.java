package io.dta.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The text of a configuration file, read with two refusals that come before any parsing: a file over
 * {@link #MAX_BYTES} (a configuration is a few kilobytes; the YAML reader takes seconds and gigabytes for megabytes)
 * is refused without being read, and bytes that are not UTF-8 are refused naming their line and byte offset.
 */
final class ConfigFileText
{
    /** Largest configuration file read: 1 MiB. */
    static final int MAX_BYTES = 1 << 20;

    private ConfigFileText()
    {
    }

    /**
     * @param path the file.
     * @return its text.
     * @throws IOException     if it cannot be read.
     * @throws ConfigException if it is too large or not UTF-8.
     */
    static String read(final Path path) throws IOException
    {
        final long size = Files.isRegularFile(path) ? Files.size(path) : -1;
        if (size > MAX_BYTES)
        {
            throw tooLarge(size + " bytes");
        }
        final byte[] bytes;
        try (InputStream in = Files.newInputStream(path))
        {
            // A FIFO or a device has no size to check first: at most one byte more than allowed is read.
            bytes = in.readNBytes(MAX_BYTES + 1);
        }
        if (bytes.length > MAX_BYTES)
        {
            throw tooLarge("more than " + MAX_BYTES + " bytes");
        }
        return decode(bytes);
    }

    /**
     * @param bytes a document.
     * @return its text.
     * @throws ConfigException naming the line and byte offset of the first byte that is not UTF-8.
     */
    static String decode(final byte[] bytes)
    {
        final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
        final ByteBuffer in = ByteBuffer.wrap(bytes);
        final CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError())
        {
            result = decoder.flush(out);
        }
        if (result.isError())
        {
            throw notUtf8(bytes, in.position());
        }
        return out.flip().toString();
    }

    private static ConfigException tooLarge(final String size)
    {
        return new ConfigException(List.of("(file): " + size + "; a configuration file is at most " +
            MAX_BYTES + " bytes (1 MiB)"));
    }

    private static ConfigException notUtf8(final byte[] bytes, final int offset)
    {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset; i++)
        {
            if ('\n' == bytes[i])
            {
                line++;
                lineStart = i + 1;
            }
        }
        return new ConfigException(List.of(String.format(Locale.ROOT,
            "(file): not UTF-8 at line %d, byte offset %d (byte %d of the line): 0x%02x; a configuration is UTF-8 text",
            line, offset, offset - lineStart + 1, bytes[offset] & 0xFF)));
    }
}
