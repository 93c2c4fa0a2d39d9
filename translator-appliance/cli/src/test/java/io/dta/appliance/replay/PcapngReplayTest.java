package io.dta.appliance.replay;

import io.dta.appliance.cli.GenCommand;
import io.dta.appliance.cli.ReplayCommand;
import io.dta.codec.pcap.PcapReader;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dta replay} of the same reports as classic pcap and as pcapng (written here, and by editcap when installed)
 * must write byte-identical RoCEv2 captures: the capture timestamps are the engine clock, so this also checks that
 * the pcapng timestamps (resolution and offset) come out exactly as the classic ones.
 */
class PcapngReplayTest
{
    /** Interface offset of the hand-written pcapng, so its timestamps only come out right if it is applied. */
    private static final long TSOFFSET_SECONDS = 1_704_000_000L;

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(longs = { 1000, 777 })
    void shouldWriteTheSameFramesFromPcapAndPcapng(final long spacingNanos) throws Exception
    {
        final Path reports = dir.resolve("reports.pcap");
        assertEquals(0, run(new GenCommand(), "--out", reports.toString(), "--reports", "4000",
            "--spacing-nanos", Long.toString(spacingNanos)));

        final Path handPcapng = dir.resolve("reports-hand.pcapng");
        final long packets = toPcapng(reports, handPcapng);
        assertEquals(4000, packets);

        final Path expected = dir.resolve("from-pcap.pcap");
        assertEquals(0, run(new ReplayCommand(), "--in", reports.toString(), "--out", expected.toString()));
        final long frames = countFrames(expected);
        assertTrue(frames > 100, "replay of the pcap wrote only " + frames + " frames");

        final Path fromHand = dir.resolve("from-hand-pcapng.pcap");
        assertEquals(0, run(new ReplayCommand(), "--in", handPcapng.toString(), "--out", fromHand.toString()));
        assertEquals(-1, Files.mismatch(expected, fromHand), "replay of the hand-written pcapng differs");

        if (Files.isExecutable(Path.of("/usr/bin/editcap")))
        {
            final Path editcapPcapng = dir.resolve("reports-editcap.pcapng");
            final Process editcap = new ProcessBuilder("/usr/bin/editcap", "-F", "pcapng", reports.toString(),
                editcapPcapng.toString()).redirectErrorStream(true).start();
            final String output = new String(editcap.getInputStream().readAllBytes());
            assertTrue(editcap.waitFor(60, TimeUnit.SECONDS), "editcap timed out");
            assertEquals(0, editcap.exitValue(), output);

            final Path fromEditcap = dir.resolve("from-editcap-pcapng.pcap");
            assertEquals(0, run(new ReplayCommand(), "--in", editcapPcapng.toString(), "--out",
                fromEditcap.toString()));
            assertEquals(-1, Files.mismatch(expected, fromEditcap), "replay of editcap's pcapng differs");
        }
    }

    /**
     * Rewrite a classic capture as big-endian pcapng: a section with a name resolution block, an unused interface,
     * then the real interface with nanosecond resolution and an offset, a custom block between packets, and an
     * interface statistics block at the end.
     */
    private static long toPcapng(final Path pcap, final Path pcapng) throws IOException
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        block(out, 0x0A0D0D0A, body(16).putInt(0x1A2B3C4D).putShort((short)1).putShort((short)0).putLong(-1));
        block(out, 4, body(4).putInt(0)); // name resolution block holding only opt_endofopt-like zeros
        block(out, 1, body(8).putShort((short)1).putShort((short)0).putInt(65535)); // interface 0, unused
        block(out, 1, body(32).putShort((short)1).putShort((short)0).putInt(65535)
            .putShort((short)9).putShort((short)1).put((byte)9).put(new byte[3]) // if_tsresol: nanoseconds
            .putShort((short)14).putShort((short)8).putLong(TSOFFSET_SECONDS) // if_tsoffset
            .putInt(0)); // opt_endofopt
        long packets = 0;
        try (PcapReader reader = PcapReader.open(pcap))
        {
            while (reader.next())
            {
                final int length = reader.capturedLength();
                final long units = reader.timestampNanos() - TSOFFSET_SECONDS * 1_000_000_000L;
                final ByteBuffer epb = body(20 + ((length + 3) & ~3)).putInt(1).putInt((int)(units >>> 32))
                    .putInt((int)units).putInt(length).putInt(reader.originalLength());
                for (int i = 0; i < length; i++)
                {
                    epb.put(reader.buffer().getByte(reader.offset() + i));
                }
                block(out, 6, epb.position(epb.capacity()));
                if (0 == packets % 1000)
                {
                    block(out, 0x0000_0BAD, body(8).putInt(32473).putInt(0x12345678)); // custom block
                }
                packets++;
            }
        }
        block(out, 5, body(12).putInt(1).putLong(0)); // interface statistics block
        Files.write(pcapng, out.toByteArray());
        return packets;
    }

    private static ByteBuffer body(final int length)
    {
        return ByteBuffer.allocate(length).order(ByteOrder.BIG_ENDIAN);
    }

    private static void block(final ByteArrayOutputStream out, final int type, final ByteBuffer body)
    {
        final int total = 12 + body.position();
        final ByteBuffer block = ByteBuffer.allocate(total).order(ByteOrder.BIG_ENDIAN);
        block.putInt(type).putInt(total).put(body.array(), 0, body.position()).putInt(total);
        out.writeBytes(block.array());
    }

    private static long countFrames(final Path capture) throws IOException
    {
        long frames = 0;
        try (PcapReader reader = PcapReader.open(capture))
        {
            while (reader.next())
            {
                frames++;
            }
        }
        return frames;
    }

    private static int run(final Object command, final String... args)
    {
        final StringWriter err = new StringWriter();
        return new CommandLine(command)
            .setOut(new PrintWriter(new StringWriter(), true))
            .setErr(new PrintWriter(err, true))
            .execute(args);
    }
}
