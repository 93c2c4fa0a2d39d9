package io.dta.appliance.cli;

import io.dta.appliance.bench.BenchInput;
import io.dta.appliance.bench.BenchMemory;
import io.dta.appliance.bench.DpdkBench;
import io.dta.config.ApplianceConfig;
import io.dta.dpdk.DpdkException;
import io.dta.dpdk.DpdkLibrary;
import io.dta.dpdk.Eal;
import io.dta.dpdk.Hugepages;
import org.agrona.DirectBuffer;

import java.util.List;
import java.util.Map;

/**
 * {@code dta bench --io dpdk}: the EAL's arguments and memory settled, then one engine on one core, the engine
 * against the C reference loop ({@link BenchCompareC}) or several workers ({@link BenchWorkers}).
 */
final class BenchOnDpdk
{
    private final BenchOptions o;
    private final BenchOutput output;
    private final boolean roundsGiven;
    private boolean onHugepages;

    /**
     * @param options     the options, checked.
     * @param roundsGiven whether the command line gave {@code --rounds}.
     */
    BenchOnDpdk(final BenchOptions options, final boolean roundsGiven)
    {
        this.o = options;
        this.output = new BenchOutput(options);
        this.roundsGiven = roundsGiven;
    }

    /**
     * @param appliance the configuration.
     * @param frames    the capture's frames with {@code --in}, or null for synthetic reports.
     * @return the exit status.
     * @throws Exception when the JSON cannot be written.
     */
    int run(final ApplianceConfig appliance, final BenchInput frames) throws Exception
    {
        if (!DpdkLibrary.isAvailable())
        {
            System.err.println("dta bench: " + DpdkLibrary.unavailableReason());
            return 1;
        }
        final List<String> ealArgs = o.userEalArgs();
        if (o.hugepages && ealArgs.stream().noneMatch(a -> a.startsWith("--huge-unlink") ||
            a.equals("--in-memory") || a.equals("--single-file-segments")))
        {
            // Unlinked at once: a bench that dies leaves no hugepage files behind (EAL refuses it beside the other
            // two).
            ealArgs.add("--huge-unlink");
        }
        final int sourceFrames = null == frames ? o.sourceReports : BenchMemory.sourceFrames(frames);
        final List<String> sessionArgs;
        if (null == frames)
        {
            sessionArgs = BenchMemory.sessionEalArgs(ealArgs);
        }
        else
        {
            final String problem = BenchMemory.captureProblem(frames, appliance, sourceFrames, o.inputKind(), ealArgs);
            if (null != problem)
            {
                System.err.println("dta bench: " + problem);
                return 1;
            }
            sessionArgs = BenchMemory.sessionEalArgs(ealArgs,
                BenchMemory.sessionMemoryMegabytes(frames, appliance, sourceFrames, o.inputKind(), ealArgs));
        }
        onHugepages = !sessionArgs.contains(Eal.NO_HUGE);
        final String missing = Hugepages.shortfallFor(sessionArgs);
        if (null != missing)
        {
            System.err.println("dta bench: hugepages: " + missing);
            return 1;
        }
        if (o.workers > 1)
        {
            return new BenchWorkers(o, onHugepages, roundsGiven).run(appliance, ealArgs);
        }
        if (o.compareC)
        {
            return new BenchCompareC(o, onHugepages).run(appliance, ealArgs, frames, sourceFrames);
        }
        return single(appliance, ealArgs, frames, sourceFrames);
    }

    private int single(
        final ApplianceConfig appliance,
        final List<String> ealArgs,
        final BenchInput frames,
        final int sourceFrames) throws Exception
    {
        final DpdkBench.Result r;
        try
        {
            r = null == frames ?
                DpdkBench.run(o.primitive, appliance, o.redundancy, o.batch, o.warmup, o.reports, ealArgs,
                    o.sourceReports, o.inputKind()) :
                DpdkBench.run(frames, appliance, o.warmup, o.reports, ealArgs, sourceFrames, o.inputKind());
        }
        catch (final DpdkException | IllegalStateException ex)
        {
            System.err.println("dta bench: " + ex.getMessage());
            return 1;
        }
        final Map<String, Object> out = figures(appliance, frames, sourceFrames, r);
        if (o.json)
        {
            BenchOutput.printJson(out, appliance);
        }
        else
        {
            System.out.printf("%s through DPDK (%s -> net_null, one core, %s): %.2f M reports/s, %.2f M frames/s, " +
                "%.3f bytes allocated per report, %d GCs (%d reports in %.2f s, %d drops)%n",
                null == frames ? o.primitiveName() : BenchOutput.sourceName(frames),
                o.inputKind().device(), onHugepages ? "hugepages" : "4 KB pages", r.reportsPerSecond() / 1e6,
                r.framesPerSecond() / 1e6,
                r.allocatedBytesPerReport(), r.gcCount(), r.reports(), r.seconds(), r.drops());
            if (null != frames)
            {
                BenchOutput.printCaptureCounts(frames, r.framesIn(), r.framesInPerSecond(), r.reports(), r::delta);
            }
        }
        if (null == frames)
        {
            BenchOutput.warnOfDrops(r.drops(), r::delta);
        }
        output.warnOfNoReports(r.reports(), appliance);
        BenchOutput.warnOfDryRing(r.inputDry());
        return 0;
    }

    private Map<String, Object> figures(
        final ApplianceConfig appliance, final BenchInput frames, final int sourceFrames, final DpdkBench.Result r)
    {
        final Map<String, Object> out = output.throughDpdk(frames, onHugepages);
        out.put("reports", r.reports());
        out.put("roceFramesOut", r.frames());
        out.put("seconds", r.seconds());
        out.put("reportsPerSecond", Math.round(r.reportsPerSecond()));
        out.put("roceFramesOutPerSecond", Math.round(r.framesPerSecond()));
        out.put("allocatedBytesPerReport", r.allocatedBytesPerReport());
        out.put("gcCount", r.gcCount());
        out.put("txDropped", r.txDropped());
        out.put("totalDrops", r.drops());
        out.put("drops", EngineSummary.nonZeroDrops(r::delta));
        out.put("agronaBoundsChecks", DirectBuffer.SHOULD_BOUNDS_CHECK);
        if (null == frames)
        {
            out.put("redundancy", o.redundancy);
            out.put("batchSize", o.batch);
        }
        else
        {
            out.put("batchSize", appliance.append().batchSize());
            out.put("sourceFrames", sourceFrames);
            output.putCaptureCounts(out, r.framesIn(), r.framesInPerSecond(), r::delta);
        }
        output.putRing(out, r.inputDry(), r.inputLowest());
        return out;
    }
}
