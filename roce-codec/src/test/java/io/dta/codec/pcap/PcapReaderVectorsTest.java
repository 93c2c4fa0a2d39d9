package io.dta.codec.pcap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PcapReaderVectorsTest
{
    private static final Pattern FRAME_HEADER = Pattern.compile("^# (\\w+) \\((\\d+) bytes, no FCS\\)$");
    private static final long VECTOR_TIMESTAMP_NANOS = 1_700_000_000L * 1_000_000_000L;

    static Path vectors() throws URISyntaxException
    {
        return Path.of(PcapReaderVectorsTest.class.getResource("/vectors/vectors.hex.txt").toURI()).getParent();
    }

    /** Frames from vectors.hex.txt keyed by vector name: the hex line right after each "# name (N bytes, no FCS)". */
    static Map<String, byte[]> expectedFrames() throws IOException, URISyntaxException
    {
        final List<String> lines = Files.readAllLines(vectors().resolve("vectors.hex.txt"));
        final Map<String, byte[]> frames = new LinkedHashMap<>();
        for (int i = 0; i < lines.size() - 1; i++)
        {
            final Matcher matcher = FRAME_HEADER.matcher(lines.get(i).trim());
            if (matcher.matches())
            {
                final byte[] frame = HexFormat.of().parseHex(lines.get(i + 1).trim());
                assertEquals(Integer.parseInt(matcher.group(2)), frame.length, "length in " + lines.get(i));
                frames.put(matcher.group(1), frame);
            }
        }
        assertEquals(5, frames.size(), "vectors found: " + frames.keySet());
        return frames;
    }

    @ParameterizedTest
    @ValueSource(strings = { "write_only", "fetch_add", "ack", "nak_seq_err", "atomic_ack" })
    void shouldReadVectorCaptureWithExpectedBytes(final String name) throws Exception
    {
        final byte[] expected = expectedFrames().get(name);
        assertNotNull(expected, name);

        try (PcapReader reader = PcapReader.open(vectors().resolve("rocev2_" + name + ".pcap")))
        {
            assertEquals(ByteOrder.LITTLE_ENDIAN, reader.fileByteOrder());
            assertFalse(reader.nanosecondResolution());
            assertEquals(65535, reader.snapLength());
            assertEquals(-1, reader.packetIndex());

            assertTrue(reader.next());
            assertEquals(0, reader.packetIndex());
            assertEquals(24, reader.recordOffset());
            assertEquals(40, reader.offset());
            assertEquals(VECTOR_TIMESTAMP_NANOS, reader.timestampNanos());
            assertEquals(expected.length, reader.capturedLength());
            assertEquals(expected.length, reader.originalLength());

            final byte[] actual = new byte[reader.capturedLength()];
            reader.buffer().getBytes(reader.offset(), actual);
            assertArrayEquals(expected, actual);

            // The CRC component reads the frame in place through the wrapped direct ByteBuffer.
            assertNotNull(reader.buffer().byteBuffer());
            assertTrue(reader.buffer().byteBuffer().isDirect());
            assertEquals(expected[0], reader.buffer().byteBuffer().get(reader.offset()));

            assertFalse(reader.next());
            assertFalse(reader.next());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "write_only", "fetch_add", "ack", "nak_seq_err", "atomic_ack" })
    void shouldProbeVectorCaptureAsPcap(final String name) throws Exception
    {
        assertTrue(PcapReader.isPcap(vectors().resolve("rocev2_" + name + ".pcap")));
        assertFalse(PcapReader.isPcap(vectors().resolve("vectors.hex.txt")));
    }
}
