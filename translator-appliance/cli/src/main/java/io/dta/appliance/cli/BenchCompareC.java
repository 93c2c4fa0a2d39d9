package io.dta.appliance.cli;

import io.dta.appliance.bench.BenchInput;
import io.dta.appliance.bench.CReference;
import io.dta.appliance.bench.DpdkBench;
import io.dta.appliance.bench.UnequalWork;
import io.dta.config.ApplianceConfig;
import io.dta.dpdk.DpdkException;
import org.agrona.DirectBuffer;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code dta bench --io dpdk --compare-c}: the engine and the C reference loop in alternating rounds on the same EAL
 * and ports, both medians, their ratio, and a warning when the two did unequal work.
 */
final class BenchCompareC
{
    private final BenchOptions o;
    private final BenchOutput output;
    private final boolean onHugepages;

    /**
     * @param options     the options, checked.
     * @param onHugepages whether the EAL runs on hugepages.
     */
    BenchCompareC(final BenchOptions options, final boolean onHugepages)
    {
        this.o = options;
        this.output = new BenchOutput(options);
        this.onHugepages = onHugepages;
    }

    /**
     * @param appliance    the configuration.
     * @param ealArgs      the EAL arguments of {@code --eal}, settled.
     * @param frames       the capture's frames with {@code --in}, or null for synthetic reports.
     * @param sourceFrames distinct frames the input repeats.
     * @return the exit status.
     * @throws Exception when the JSON cannot be written.
     */
    int run(
        final ApplianceConfig appliance,
        final List<String> ealArgs,
        final BenchInput frames,
        final int sourceFrames) throws Exception
    {
        if (!CReference.isAvailable())
        {
            System.err.println("dta bench: --compare-c: " + CReference.unavailableReason());
            return 1;
        }
        final DpdkBench.Comparison c;
        final long perRound = null == frames ?
            o.reports / o.rounds : DpdkBench.framesPerRound(frames, o.reports / o.rounds);
        if (null != frames && perRound < BenchOptionChecks.MIN_REPORTS_PER_ROUND)
        {
            // With --in a round is whole passes of the capture, so the floor applies to that, not to the request.
            System.err.println("dta bench: --reports / --rounds must come to at least " +
                BenchOptionChecks.MIN_REPORTS_PER_ROUND + " frames per round (each round whole passes of the " +
                "capture's " + frames.count() + " frames), not " + perRound + " from " + o.reports + " / " + o.rounds);
            return 2;
        }
        try
        {
            c = null == frames ?
                DpdkBench.compare(o.primitive, appliance, o.redundancy, o.batch, o.warmup, o.reports / o.rounds,
                    o.rounds, ealArgs, o.sourceReports, o.inputKind()) :
                DpdkBench.compare(frames, appliance, o.warmup, o.reports / o.rounds, o.rounds, ealArgs, sourceFrames,
                    o.inputKind());
        }
        catch (final DpdkException | IllegalStateException | IllegalArgumentException ex)
        {
            System.err.println("dta bench: " + ex.getMessage());
            return 1;
        }
        final DpdkBench.Result r = c.java();
        final Map<String, String> unequalWork = UnequalWork.of(r, c.reference());
        if (o.json)
        {
            BenchOutput.printJson(figures(appliance, frames, sourceFrames, perRound, c, unequalWork), appliance);
        }
        else
        {
            printText(frames, c);
        }
        if (null == frames)
        {
            BenchOutput.warnOfDrops(r.drops(), r::delta);
        }
        if (!unequalWork.isEmpty())
        {
            System.err.println("dta bench: warning: the ratio compares unequal work (unequalWork in the JSON): " +
                String.join("; ", unequalWork.values()));
        }
        output.warnOfNoReports(r.reports(), appliance);
        BenchOutput.warnOfDryRing(c.inputDry());
        return 0;
    }

    private Map<String, Object> figures(
        final ApplianceConfig appliance,
        final BenchInput frames,
        final int sourceFrames,
        final long perRound,
        final DpdkBench.Comparison c,
        final Map<String, String> unequalWork)
    {
        final DpdkBench.Result r = c.java();
        final Map<String, Object> out = output.throughDpdk(frames, onHugepages);
        out.put("reportsPerSecond", Math.round(c.reportsPerSecond()));
        out.put("referenceReportsPerSecond", Math.round(c.referenceReportsPerSecond()));
        out.put("ratio", BenchOutput.ratio(c.ratio()));
        out.put("reportsPerCpuSecond", Math.round(c.reportsPerCpuSecond()));
        out.put("referenceReportsPerCpuSecond", Math.round(c.referenceReportsPerCpuSecond()));
        out.put("cpuRatio", BenchOutput.ratio(c.cpuRatio()));
        out.put("unequalWork", !unequalWork.isEmpty());
        out.put("unequalWorkReasons", List.copyOf(unequalWork.keySet()));
        out.put("rounds", o.rounds);
        out.put(null == frames ? "sourceReports" : "sourceFrames", null == frames ? o.sourceReports : sourceFrames);
        out.put(null == frames ? "reportsPerRound" : "framesPerRound", perRound);
        out.put("javaRounds", Arrays.stream(c.javaRounds()).mapToLong(Math::round).toArray());
        out.put("referenceRounds", Arrays.stream(c.referenceRounds()).mapToLong(Math::round).toArray());
        out.put("roceFramesOutPerSecond", Math.round(r.framesPerSecond()));
        out.put("referenceRoceFramesOutPerSecond", Math.round(c.referenceFramesPerSecond()));
        out.put("allocatedBytesPerReport", r.allocatedBytesPerReport());
        out.put("agronaBoundsChecks", DirectBuffer.SHOULD_BOUNDS_CHECK);
        out.put("gcCount", r.gcCount());
        out.put("txDropped", r.txDropped());
        out.put("referenceTxDropped", c.referenceTxDropped());
        out.put("referenceCrc", c.crc());
        out.put("ioFloorReportsPerSecond", Math.round(c.ioFloorReportsPerSecond()));
        out.put("totalDrops", r.drops());
        out.put("drops", EngineSummary.nonZeroDrops(r::delta));
        if (null == frames)
        {
            out.put("redundancy", o.redundancy);
            out.put("batchSize", o.batch);
        }
        else
        {
            out.put("batchSize", appliance.append().batchSize());
            out.put("reports", r.reports());
            output.putCaptureCounts(out, r.framesIn(), r.framesInPerSecond(), r::delta);
            out.put("reference", referenceCounts(c.reference()));
        }
        output.putRing(out, c.inputDry(), c.inputLowest());
        return out;
    }

    private static Map<String, Object> referenceCounts(final DpdkBench.ReferenceCounts counts)
    {
        final Map<String, Object> reference = new LinkedHashMap<>();
        reference.put("framesIn", counts.framesIn());
        reference.put("reportsIn", counts.reportsIn());
        reference.put("reportsTranslated", counts.reportsTranslated());
        reference.put("totalDrops", counts.drops());
        reference.put("unsupported", counts.unsupported());
        reference.put("otherFrames", counts.other());
        reference.put("malformed", counts.malformed());
        reference.put("responses", counts.responses());
        reference.put("roceFramesOut", counts.framesOut());
        return reference;
    }

    private void printText(final BenchInput frames, final DpdkBench.Comparison c)
    {
        final DpdkBench.Result r = c.java();
        System.out.printf("%s through DPDK (%s -> net_null, one core, %s), median of %d rounds each:%n" +
            "  Java engine  %.2f M reports/s (%.3f bytes allocated per %s, %d GCs)%n" +
            "  C reference  %.2f M reports/s (CRC-32: %s)%n" +
            "  %s%n" +
            "  input floor  %.2f M reports/s (rx, touch, free%s in C; nothing translated or sent)%n",
            null == frames ? o.primitiveName() : BenchOutput.sourceName(frames), o.inputKind().device(),
            onHugepages ? "hugepages" : "4 KB pages", o.rounds, c.reportsPerSecond() / 1e6,
            r.allocatedBytesPerReport(), r.reports() > 0 ? "report" : "frame", r.gcCount(),
            c.referenceReportsPerSecond() / 1e6, c.crc(), Double.isNaN(c.ratio()) ?
            "no ratio Java / C: a side counted no DTA report" :
            String.format("ratio Java / C = %.3f (per CPU second of the measuring thread: %.2f M against %.2f M, " +
            "%.3f)", c.ratio(), c.reportsPerCpuSecond() / 1e6, c.referenceReportsPerCpuSecond() / 1e6,
            c.cpuRatio()), c.ioFloorReportsPerSecond() / 1e6, "ring".equals(o.input) ? ", the ring fed," : "");
        if (null != frames)
        {
            BenchOutput.printCaptureCounts(frames, r.framesIn(), r.framesInPerSecond(), r.reports(), r::delta);
            final DpdkBench.ReferenceCounts counts = c.reference();
            System.out.printf("  C reference over its rounds: %d frames in, %d reports in, %d translated, %d " +
                "unsupported (sequence-tracked, essential, Sketch-Merge), %d dropped, %d other frames, %d " +
                "malformed, %d responses, %d RoCEv2 frames out%n", counts.framesIn(), counts.reportsIn(),
                counts.reportsTranslated(), counts.unsupported(), counts.drops(), counts.other(), counts.malformed(),
                counts.responses(), counts.framesOut());
        }
    }
}
