package io.dta.appliance.dpdk;

import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The report captures the replay EAL tests feed both I/O paths: {@code dta gen}'s generator written to a classic
 * pcap, with the generator's timestamps.
 */
final class GeneratedReports
{
    private GeneratedReports()
    {
    }

    /**
     * @param path     the capture to write.
     * @param config   the configuration the reports are addressed to.
     * @param settings what to generate.
     * @param count    how many reports.
     * @return {@code path}.
     * @throws IOException when the capture cannot be written.
     */
    static Path write(final Path path, final ApplianceConfig config, final GeneratorSettings settings, final int count)
        throws IOException
    {
        final ReportGenerator generator = new ReportGenerator(config, settings);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[ReportGenerator.MAX_FRAME_LENGTH]);
        try (PcapWriter writer = new PcapWriter(path, true))
        {
            for (int i = 0; i < count; i++)
            {
                final int length = generator.next(frame, 0);
                writer.write(generator.timestampNanos(), frame, 0, length);
            }
        }
        return path;
    }
}
