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
import java.util.Locale;

/**
 * The text of a configuration file, read with refusals that come before any parsing: a file over {@link #MAX_BYTES}
 * (a configuration is a few kilobytes; the YAML reader took seconds and gigabytes for megabytes) is refused without
 * being read, bytes that are not UTF-8 are refused naming their line and byte offset, and so is a line over
 * {@link #MAX_LINE_BYTES} (the YAML reader's time grows with the square of a line's length: seconds for one line of
 * a megabyte).
 */
final class ConfigFileText
{
    /** Largest configuration file read: 1 MiB. */
    static final int MAX_BYTES = 1 << 20;
    /** Longest line read, its line break not counted: 64 KiB. */
    static final int MAX_LINE_BYTES = 1 << 16;

    private ConfigFileText()
    {
    }

    /**
     * @param path the file.
     * @return its text.
     * @throws IOException if it cannot be read, is too large or is not UTF-8 (the message says which, in words).
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
        final String text = decode(bytes);
        checkLines(bytes);
        return text;
    }

    private static void checkLines(final byte[] bytes) throws IOException
    {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i <= bytes.length; i++)
        {
            if (i == bytes.length || '\n' == bytes[i])
            {
                if (i - lineStart > MAX_LINE_BYTES)
                {
                    throw new IOException("line " + line + " is " + (i - lineStart) + " bytes long; a configuration " +
                        "line is at most " + MAX_LINE_BYTES + " bytes");
                }
                line++;
                lineStart = i + 1;
            }
        }
    }

    /**
     * @param bytes a document.
     * @return its text.
     * @throws IOException naming the line and byte offset of the first byte that is not UTF-8.
     */
    static String decode(final byte[] bytes) throws IOException
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

    private static IOException tooLarge(final String size)
    {
        return new IOException("too large, " + size + "; a configuration file is at most " + MAX_BYTES +
            " bytes (1 MiB)");
    }

    private static IOException notUtf8(final byte[] bytes, final int offset)
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
        return new IOException(String.format(Locale.ROOT,
            "not UTF-8 text: byte 0x%02x at line %d, byte offset %d (byte %d of the line)",
            bytes[offset] & 0xFF, line, offset, offset - lineStart + 1));
    }
}
