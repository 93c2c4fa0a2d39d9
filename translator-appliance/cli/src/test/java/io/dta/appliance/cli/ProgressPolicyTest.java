package io.dta.appliance.cli;

import io.dta.appliance.gen.ProgressBar;
import io.dta.appliance.io.FrameSource;
import io.dta.codec.pcap.PcapReader;
import org.agrona.DirectBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When long work shows its progress: never with {@code --no-progress}; off a terminal (as in this test) only for
 * large inputs, so that logs of ordinary runs stay free of progress lines.
 */
class ProgressPolicyTest
{
    @TempDir
    Path dir;

    @Test
    void shouldShowNoProgressForASmallCaptureOffATerminalOrWhenTurnedOff() throws Exception
    {
        final Path capture = dir.resolve("r.pcap");
        CliRunner.run("gen", "--out", capture.toString(), "--reports", "100", "--no-progress");
        try (PcapReader reader = PcapReader.open(capture))
        {
            assertNull(CaptureProgress.of(reader, capture, false), "--no-progress");
            if (!StderrTerminal.isTerminal())
            {
                assertNull(CaptureProgress.of(reader, capture, true), "a small capture, standard error a file");
            }
        }
    }

    @Test
    void shouldLeaveASmallSourceAsItIsOffATerminal()
    {
        final FrameSource source = new FrameSource()
        {
            @Override
            public boolean next()
            {
                return false;
            }

            @Override
            public DirectBuffer buffer()
            {
                return null;
            }

            @Override
            public int offset()
            {
                return 0;
            }

            @Override
            public int length()
            {
                return 0;
            }

            @Override
            public long timeNanos()
            {
                return 0;
            }
        };
        assertSame(source, SourceProgress.of(source, 1_000_000_000L, false), "--no-progress");
        if (!StderrTerminal.isTerminal())
        {
            assertSame(source, SourceProgress.of(source, SourceProgress.PLAIN_LINES_FROM_REPORTS - 1, true));
        }
    }

    @Test
    void shouldNameTheUnitItCounts()
    {
        final String line = ProgressBar.render(512, 1024, 1_000_000_000L, "bytes");
        assertTrue(line.contains(" 50.0% 512/1,024 bytes "), line);
    }
}
