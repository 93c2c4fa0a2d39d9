package io.dta.appliance.bench;

import io.dta.appliance.gen.GeneratorSettings;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.codec.EthernetFlyweight;
import io.dta.codec.pcap.PcapWriter;
import io.dta.config.ApplianceConfig;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Captures of mixed traffic for {@code dta bench --in} tests: {@code dta gen}'s reports (its default mix of the four
 * fixed primitives, some deliberately invalid) with an ARP request after every {@link #ARP_EVERY}-th report, which the
 * engine counts as another frame and skips.
 */
public final class BenchCaptures
{
    /** Reports between two ARP requests. */
    public static final int ARP_EVERY = 40;

    private static final int ARP_LENGTH = 42;

    private BenchCaptures()
    {
    }

    /**
     * @param path     the capture to write.
     * @param config   the configuration the reports are addressed to.
     * @param settings what to generate.
     * @param reports  how many reports.
     * @return how many frames the capture holds (reports and ARP requests).
     * @throws IOException when the capture cannot be written.
     */
    public static int write(
        final Path path, final ApplianceConfig config, final GeneratorSettings settings, final int reports)
        throws IOException
    {
        final ReportGenerator generator = new ReportGenerator(config, settings);
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[ReportGenerator.MAX_FRAME_LENGTH]);
        final UnsafeBuffer arp = new UnsafeBuffer(new byte[ARP_LENGTH]);
        new EthernetFlyweight().wrap(arp, 0).dstMac(0xFFFF_FFFF_FFFFL).srcMac(0x0200_0000_0001L).etherType(0x0806);
        int frames = 0;
        try (PcapWriter writer = new PcapWriter(path, true))
        {
            for (int i = 0; i < reports; i++)
            {
                final int length = generator.next(frame, 0);
                writer.write(generator.timestampNanos(), frame, 0, length);
                frames++;
                if (ARP_EVERY - 1 == i % ARP_EVERY)
                {
                    writer.write(generator.timestampNanos(), arp, 0, ARP_LENGTH);
                    frames++;
                }
            }
        }
        return frames;
    }

    /**
     * The default mix with 5 % invalid reports, seeded.
     *
     * @param seed the generator's seed.
     * @return the settings.
     */
    public static GeneratorSettings mixed(final long seed)
    {
        return new GeneratorSettings().seed(seed).badFraction(0.05);
    }
}
