package io.dta.appliance.cli;

import io.dta.collector.query.KeyWriteAnswer;

import java.io.PrintStream;
import java.math.BigInteger;
import java.util.Locale;

/**
 * The lines of {@code dta query keywrite}, a table or JSON Lines, built in one buffer and written in large pieces
 * so that printing a million answers keeps up with the lookups. The JSON object of a key: {@code key}, {@code found},
 * {@code value} (the data as an unsigned big-endian number, null unless found), {@code status}, {@code matches},
 * {@code agreeing}.
 */
final class KeyWriteLines
{
    private static final int FLUSH_AT = 1 << 16;

    private final PrintStream out;
    private final boolean json;
    private final StringBuilder line = new StringBuilder(FLUSH_AT + 256);

    KeyWriteLines(final PrintStream out, final boolean json)
    {
        this.out = out;
        this.json = json;
        if (!json)
        {
            out.printf("%-12s %-10s %-8s %s%n", "key", "status", "copies", "value");
        }
    }

    void add(final KeyWriteAnswer a)
    {
        final String status = a.status().name().toLowerCase(Locale.ROOT);
        if (json)
        {
            line.append("{\"key\":").append(a.key()).append(",\"found\":").append(a.found()).append(",\"value\":");
            if (a.found())
            {
                appendValue(a, false);
            }
            else
            {
                line.append("null");
            }
            line.append(",\"status\":\"").append(status).append("\",\"matches\":").append(a.matches())
                .append(",\"agreeing\":").append(a.agreeing()).append('}');
        }
        else
        {
            pad(Long.toString(a.key()), 12);
            pad(status, 10);
            pad(a.agreeing() + "/" + a.matches(), 8);
            if (a.found())
            {
                appendValue(a, false);
                line.append(" (0x");
                appendValue(a, true);
                line.append(')');
            }
            else
            {
                line.append('-');
            }
        }
        line.append(System.lineSeparator());
        if (line.length() >= FLUSH_AT)
        {
            flush();
        }
    }

    void flush()
    {
        out.print(line);
        out.flush();
        line.setLength(0);
    }

    private void appendValue(final KeyWriteAnswer a, final boolean hex)
    {
        if (a.dataLength() < 8)
        {
            line.append(hex ? Long.toHexString(a.valuePrefix()) : Long.toString(a.valuePrefix()));
        }
        else
        {
            final BigInteger v = a.value();
            line.append(hex ? v.toString(16) : v.toString());
        }
    }

    private void pad(final String text, final int width)
    {
        line.append(text);
        for (int i = text.length(); i < width; i++)
        {
            line.append(' ');
        }
        line.append(' ');
    }
}
