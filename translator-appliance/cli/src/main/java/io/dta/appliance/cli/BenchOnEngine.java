package io.dta.appliance.cli;

import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.EngineBench;
import io.dta.appliance.engine.EngineCounter;
import io.dta.config.ApplianceConfig;
import io.dta.config.SketchConfig;
import org.agrona.DirectBuffer;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code dta bench --io java}: the engine alone on this thread, then its figures printed.
 */
final class BenchOnEngine
{
    private final BenchOptions o;
    private final BenchOutput output;

    /**
     * @param options the options, checked.
     */
    BenchOnEngine(final BenchOptions options)
    {
        this.o = options;
        this.output = new BenchOutput(options);
    }

    /**
     * @param bench     the engine and its input, built.
     * @param appliance the configuration.
     * @return the exit status.
     * @throws Exception when the JSON cannot be written.
     */
    int run(final EngineBench bench, final ApplianceConfig appliance) throws Exception
    {
        final EngineBench.Result r = bench.run(o.warmup, o.reports);
        // The measured phase's drops, as through DPDK (none expected for synthetic reports; a capture's by reason
        // below): the warm-up's are not the measurement's.
        final long drops = BenchOutput.totalDrops(r::delta);
        final Map<String, Object> out = figures(bench, r, drops, appliance);
        if (o.json)
        {
            BenchOutput.printJson(out, appliance);
        }
        else
        {
            System.out.printf("%s%s: %.2f M reports/s, %.2f M frames/s, %.3f bytes allocated per report, %d GCs " +
                "(%d reports in %.2f s, %d drops; %.2f M reports per CPU second; Agrona bounds checks %s)%n",
                BenchOutput.sourceName(bench.input()), bench.openLoop() ? " (open loop)" : " (closed loop)",
                r.reportsPerSecond() / 1e6, r.framesPerSecond() / 1e6,
                r.allocatedBytesPerReport(), r.gcCount(), r.reports(), r.seconds(), drops,
                r.reportsPerCpuSecond() / 1e6, DirectBuffer.SHOULD_BOUNDS_CHECK ? "on" : "off");
            BenchOutput.printCaptureCounts(bench.input(), r.framesIn(), r.framesInPerSecond(), r.reports(), r::delta);
        }
        if (null == o.in)
        {
            BenchOutput.warnOfDrops(drops, r::delta);
        }
        output.warnOfNoReports(r.reports(), appliance);
        return 0;
    }

    private Map<String, Object> figures(
        final EngineBench bench, final EngineBench.Result r, final long drops, final ApplianceConfig appliance)
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        output.putSource(out, bench.input());
        out.put("reports", r.reports());
        out.put("roceFramesOut", r.frames());
        out.put("seconds", r.seconds());
        out.put("reportsPerSecond", Math.round(r.reportsPerSecond()));
        out.put("roceFramesOutPerSecond", Math.round(r.framesPerSecond()));
        out.put("allocatedBytesPerReport", r.allocatedBytesPerReport());
        out.put("gcCount", r.gcCount());
        out.put("totalDrops", drops);
        out.put("drops", EngineSummary.nonZeroDrops(r::delta));
        if (null == o.in)
        {
            out.put("redundancy", o.redundancy);
        }
        // What the engine ran with: --batch (default 16) for synthetic reports, the configuration's for a capture.
        out.put("batchSize", bench.config().append().batchSize());
        out.put("openLoop", bench.openLoop());
        if (BenchPrimitive.SKETCH == o.primitive)
        {
            putSketch(out, bench, appliance);
        }
        out.put("reportsPerCpuSecond", Math.round(r.reportsPerCpuSecond()));
        output.putCaptureCounts(out, r.framesIn(), r.framesInPerSecond(), r::delta);
        out.put("agronaBoundsChecks", DirectBuffer.SHOULD_BOUNDS_CHECK);
        out.put("compressedOops", BenchOutput.vmFlag("UseCompressedOops"));
        out.put("transparentHugePages", BenchOutput.vmFlag("UseTransparentHugePages"));
        return out;
    }

    private void putSketch(final Map<String, Object> out, final EngineBench bench, final ApplianceConfig appliance)
    {
        final SketchConfig sketch = o.primitive.collectorIn(appliance).sketches().get(0);
        out.put("switches", o.switches);
        final Map<String, Object> shape = new LinkedHashMap<>();
        shape.put("type", sketch.type().text());
        shape.put("rows", sketch.rows());
        shape.put("columns", sketch.columns());
        shape.put("batchColumns", sketch.batchColumns());
        out.put("sketchShape", shape);
        out.put("epochsCompleted", bench.engine().counters().get(EngineCounter.SKETCH_EPOCHS_COMPLETED));
    }
}
