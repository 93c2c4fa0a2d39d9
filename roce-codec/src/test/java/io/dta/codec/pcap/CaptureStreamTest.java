package io.dta.codec.pcap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The buffered file on its own: bytes come back in file order at the reported file offsets however the buffer is
 * compacted and refilled, a request reads only when fewer bytes are buffered, and the end of the file is told.
 */
class CaptureStreamTest
{
    private static final int CAPACITY = 1000;

    @TempDir
    Path dir;

    @Test
    void shouldStreamAFileLargerThanTheBufferInOrder() throws Exception
    {
        final byte[] bytes = PcapFileBuilder.pattern(3 * CAPACITY + 123, 7);
        final Path file = Files.write(dir.resolve("bytes"), bytes);
        final CaptureStream stream = new CaptureStream(file, CAPACITY);
        try
        {
            int consumed = 0;
            final int[] steps = { 1, 17, 400, 999, 3, 1000, 250 };
            int step = 0;
            while (consumed < bytes.length)
            {
                final int want = Math.min(steps[step++ % steps.length], bytes.length - consumed);
                assertTrue(stream.request(want) >= want);
                assertEquals(consumed, stream.fileOffset());
                for (int i = 0; i < want; i++)
                {
                    assertEquals(bytes[consumed + i], stream.buffer().getByte(stream.readIndex() + i),
                        "byte " + (consumed + i));
                }
                stream.consume(want);
                consumed += want;
            }
            assertEquals(0, stream.request(1));
            assertTrue(stream.endOfFile());
            assertEquals(bytes.length, stream.fileOffset());
        }
        finally
        {
            stream.close();
        }
    }

    @Test
    void shouldReportFewerBytesThanRequestedOnlyAtTheEndOfTheFile() throws Exception
    {
        final Path file = Files.write(dir.resolve("short"), PcapFileBuilder.pattern(10, 1));
        final CaptureStream stream = new CaptureStream(file, CAPACITY);
        try
        {
            assertEquals(10, stream.request(4), "the first read fills what the file has");
            assertTrue(stream.endOfFile());
            stream.consume(8);
            assertEquals(2, stream.request(4));
            assertEquals(8, stream.fileOffset());
        }
        finally
        {
            stream.close();
        }
    }

    @Test
    void shouldPlaceTheScratchAreaAfterTheReadAreaAndEmptyTheBufferOnClose() throws Exception
    {
        final Path file = Files.write(dir.resolve("any"), new byte[4]);
        final CaptureStream stream = new CaptureStream(file, CAPACITY);
        assertEquals(CAPACITY, stream.scratchOffset());
        assertEquals(CAPACITY + PcapFormat.MAX_CAPTURED_LENGTH + LinkLayerAdapter.MAX_GROWTH,
            stream.buffer().capacity());
        assertFalse(stream.closed());
        stream.close();
        stream.close();
        assertTrue(stream.closed());
        assertEquals(0, stream.buffer().capacity());
        assertThrows(IndexOutOfBoundsException.class, () -> stream.buffer().getByte(0));
    }
}
