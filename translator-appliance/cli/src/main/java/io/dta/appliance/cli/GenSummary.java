package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dta.appliance.gen.BadKind;
import io.dta.appliance.gen.Primitive;
import io.dta.appliance.gen.ReportGenerator;
import io.dta.appliance.gen.SketchTraffic;
import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.Ipv4Address;

import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * What {@code dta gen} says it wrote: the capture, the traffic's settings, the reports by primitive, bad kind and
 * reporter, the sketch streams; as text or as one JSON object.
 */
final class GenSummary
{
    private final Path out;
    private final long seed;
    private final String keys;
    private final long keySpace;
    private final boolean retransmittable;

    /**
     * @param out             the capture written.
     * @param seed            {@code --seed}.
     * @param keys            {@code --keys}, as given.
     * @param keySpace        {@code --key-space}.
     * @param retransmittable {@code --retransmittable}.
     */
    GenSummary(final Path out, final long seed, final String keys, final long keySpace, final boolean retransmittable)
    {
        this.out = out;
        this.seed = seed;
        this.keys = keys;
        this.keySpace = keySpace;
        this.retransmittable = retransmittable;
    }

    /**
     * Prints the summary as text.
     */
    void text(
        final PrintWriter stdout, final ReportGenerator generator, final long fileSize, final boolean nanosecondPcap)
    {
        final long total = generator.reports();
        stdout.printf("wrote %,d reports to %s: %,d bytes (%s pcap)%n",
            total, out, fileSize, nanosecondPcap ? "nanosecond" : "microsecond");
        stdout.printf("base header %d-byte, seed %d, keys %s over %,d, %d reporter(s), hops %d%n",
            generator.form().length(), seed, keys.trim().toLowerCase(), keySpace, generator.reporters(),
            generator.hops());
        for (final Primitive primitive : Primitive.values())
        {
            final long count = generator.count(primitive);
            stdout.printf("  %-13s %,12d  %5.1f%%%s%n", primitive.cliName(), count, percent(count, total),
                primitive == Primitive.POSTCARD && count > 0 ? String.format("  (%,d flows, %,d hops not sent)",
                generator.postcardFlows(), generator.postcardHopsSkipped()) : "");
        }
        for (final SketchTraffic t : generator.sketchTraffic())
        {
            stdout.printf("    sketch %d (%s, %d x %d) on %s: %d switches, %,d columns sent, %,d gaps (%,d columns " +
                "past them), %,d duplicates%n", t.sketch().id(), t.sketch().type().text(), t.sketch().rows(),
                t.sketch().columns(), Ipv4Address.format(generator.collectorIpOf(t.collectorIndex())), t.switches(),
                t.frames(), t.gaps(), t.aheadFrames(), t.duplicates());
        }
        stdout.printf("  %-13s %,12d  %5.1f%%%n", "bad", generator.badTotal(), percent(generator.badTotal(), total));
        for (final BadKind kind : BadKind.values())
        {
            if (generator.badCount(kind) > 0)
            {
                stdout.printf("    %-20s %,10d%n", kind.cliName(), generator.badCount(kind));
            }
        }
        if (generator.form() == DtaBaseHeaderForm.THREE)
        {
            stdout.printf("  %-13s %,12d  %5.1f%%%s%n", "essential", generator.essentialCount(),
                percent(generator.essentialCount(), total), retransmittable ? "; all retransmittable" : "");
        }
        stdout.println("reporters:");
        final int shown = Math.min(generator.reporters(), 16);
        for (int i = 0; i < shown; i++)
        {
            stdout.printf("  %-15s %,12d%n", Ipv4Address.format(generator.reporterIp(i)), generator.reporterCount(i));
        }
        if (shown < generator.reporters())
        {
            long min = Long.MAX_VALUE;
            long max = 0;
            for (int i = 0; i < generator.reporters(); i++)
            {
                min = Math.min(min, generator.reporterCount(i));
                max = Math.max(max, generator.reporterCount(i));
            }
            stdout.printf("  ... %,d more; per reporter min %,d max %,d (all of them with --json)%n",
                generator.reporters() - shown, min, max);
        }
    }

    /**
     * @return the summary as one JSON object.
     */
    String json(final ReportGenerator generator, final long fileSize, final boolean nanosecondPcap)
    {
        final ObjectMapper mapper = new ObjectMapper();
        final ObjectNode root = mapper.createObjectNode();
        root.put("file", out.toString());
        root.put("fileBytes", fileSize);
        root.put("timestampResolution", nanosecondPcap ? "nanosecond" : "microsecond");
        root.put("reports", generator.reports());
        root.put("valid", generator.reports() - generator.badTotal());
        root.put("baseHeader", generator.form().length());
        root.put("seed", seed);
        root.put("keys", keys.trim().toLowerCase());
        root.put("keySpace", keySpace);
        root.put("hopsPerFlow", generator.hops());
        final ObjectNode primitives = root.putObject("primitives");
        for (final Primitive primitive : Primitive.values())
        {
            primitives.put(EngineSummary.camel(primitive.name()), generator.count(primitive));
        }
        root.put("postcardFlows", generator.postcardFlows());
        if (!generator.sketchTraffic().isEmpty())
        {
            root.set("sketches", SketchTruth.summary(generator));
        }
        root.put("postcardHopsNotSent", generator.postcardHopsSkipped());
        root.put("essentialReports", generator.essentialCount());
        root.put("retransmittable", retransmittable);
        final ObjectNode badNode = root.putObject("bad");
        for (final BadKind kind : BadKind.values())
        {
            badNode.put(EngineSummary.camel(kind.name()), generator.badCount(kind));
        }
        final ArrayNode reporterNodes = root.putArray("reporters");
        for (int i = 0; i < generator.reporters(); i++)
        {
            reporterNodes.addObject()
                .put("ip", Ipv4Address.format(generator.reporterIp(i)))
                .put("reports", generator.reporterCount(i));
        }
        final ArrayNode omitted = root.putArray("omittedFromMix");
        for (final Primitive primitive : generator.omittedPrimitives())
        {
            omitted.add(primitive.cliName());
        }
        return root.toString();
    }

    private static double percent(final long count, final long total)
    {
        return total == 0 ? 0.0 : 100.0 * count / total;
    }
}
