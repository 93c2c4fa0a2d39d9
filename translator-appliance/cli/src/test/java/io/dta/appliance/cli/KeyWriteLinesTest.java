package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dta.codec.KeyHash;
import io.dta.collector.query.KeyWriteAnswer;
import io.dta.collector.query.KeyWriteQuery;
import io.dta.collector.query.KeyWriteResult;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code dta query keywrite} prints, for every answer, exactly the line it printed before its output was built in
 * one buffer: the table through {@code printf} and JSON through Jackson, over a seeded store with found,
 * not-found and conflicting keys and every slot size (data up to 28 bytes, values beyond 64 bits).
 */
class KeyWriteLinesTest
{
    @ParameterizedTest
    @ValueSource(ints = { 8, 16, 32 })
    void shouldPrintWhatPrintfAndJacksonPrinted(final int slotSize)
    {
        final int slots = 512;
        final UnsafeBuffer memory = new UnsafeBuffer(new byte[slots * slotSize]);
        final SplittableRandom random = new SplittableRandom(0x11E5 + slotSize);
        final KeyHash hash = new KeyHash();
        for (int k = 0; k < 300; k++)
        {
            for (int n = 0; n < 3; n++)
            {
                final int offset = hash.slotIndex(k, n, slots) * slotSize;
                memory.putInt(offset, (int)hash.checksum(k), ByteOrder.LITTLE_ENDIAN);
                final byte[] data = new byte[slotSize - 4];
                random.nextBytes(data);
                data[0] = random.nextBoolean() ? 0 : data[0];
                memory.putBytes(offset + 4, data);
            }
        }
        final KeyWriteQuery query = new KeyWriteQuery(memory, slotSize);
        final KeyWriteAnswer answer = new KeyWriteAnswer();
        for (final boolean json : new boolean[] { false, true })
        {
            final ByteArrayOutputStream actual = new ByteArrayOutputStream();
            final ByteArrayOutputStream expected = new ByteArrayOutputStream();
            final PrintStream former = new PrintStream(expected, true, StandardCharsets.UTF_8);
            final KeyWriteLines lines = new KeyWriteLines(new PrintStream(actual, true, StandardCharsets.UTF_8), json);
            if (!json)
            {
                former.printf("%-12s %-10s %-8s %s%n", "key", "status", "copies", "value");
            }
            for (long k = 0; k < 400; k++)
            {
                final boolean consensus = k % 3 == 0;
                query.lookup(k, 3, consensus, answer);
                lines.add(answer);
                formerLine(former, query.lookup(k, 3, consensus), json);
            }
            lines.flush();
            assertEquals(expected.toString(StandardCharsets.UTF_8), actual.toString(StandardCharsets.UTF_8));
        }
    }

    private static void formerLine(final PrintStream out, final KeyWriteResult r, final boolean json)
    {
        final long k = r.key();
        if (json)
        {
            final ObjectNode node = QueryCommand.MAPPER.createObjectNode();
            node.put("key", k);
            node.put("found", r.found());
            if (r.found())
            {
                node.put("value", r.value());
            }
            else
            {
                node.putNull("value");
            }
            node.put("status", r.status().name().toLowerCase(Locale.ROOT));
            node.put("matches", r.matches());
            node.put("agreeing", r.agreeing());
            QueryCommand.printJson(out, node);
        }
        else
        {
            out.printf("%-12d %-10s %-8s %s%n", k, r.status().name().toLowerCase(Locale.ROOT),
                r.agreeing() + "/" + r.matches(), r.found() ? r.value() + " (0x" + r.value().toString(16) + ")" : "-");
        }
    }
}
