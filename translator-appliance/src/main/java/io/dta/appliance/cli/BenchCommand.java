package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.bench.BenchPrimitive;
import io.dta.appliance.bench.EngineBench;
import io.dta.appliance.engine.EngineCounter;
import io.dta.config.ApplianceConfig;
import org.agrona.DirectBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code dta bench}: the engine alone on one thread, after a warm-up.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = {
        "Measure the translation engine alone on one thread: pre-built report frames in memory, frames out to a",
        "discarding sink, the collector's ACKs and ATOMIC ACKs answered as its soft responder would. Prints",
        "reportsPerSecond, framesPerSecond, allocatedBytesPerReport (this thread's allocation over the measured",
        "phase), gcCount, reportsPerCpuSecond (over the thread's CPU time: robust on a shared machine) and whether",
        "Agrona's bounds checks were on (bin/dta turns them off for bench; see docs/performance.md)." })
public final class BenchCommand implements Callable<Integer>
{
    @Mixin
    private ConfigOption config = new ConfigOption();

    @Option(names = "--primitive", required = true, paramLabel = "keywrite|keyincrement|append|postcard",
        description = "primitive to drive")
    private BenchPrimitive primitive;

    @Option(names = "--reports", defaultValue = "20000000", description = "reports measured (default: ${DEFAULT-VALUE})")
    private long reports;

    @Option(names = "--warmup", defaultValue = "5000000", description = "reports fed before measuring (default: ${DEFAULT-VALUE})")
    private long warmup;

    @Option(names = "--redundancy", defaultValue = "1", description = "N of Key-Write / Key-Increment (default: ${DEFAULT-VALUE})")
    private int redundancy;

    @Option(names = "--batch", defaultValue = "16", description = "Append batch size (default: ${DEFAULT-VALUE})")
    private int batch;

    @Option(names = "--io", defaultValue = "java", paramLabel = "java|dpdk", description = "java (default): engine alone")
    private String io;

    @Option(names = "--json", description = "print one JSON object")
    private boolean json;

    /**
     * {@inheritDoc}
     */
    @Override
    public Integer call() throws Exception
    {
        if (!"java".equals(io))
        {
            System.err.println("dta bench: --io " + io + " is not available in this build (only --io java)");
            return 2;
        }
        if (reports <= 0 || warmup < 0)
        {
            System.err.println("dta bench: --reports must be positive and --warmup not negative");
            return 2;
        }
        if (batch < 1 || batch > 16 || Integer.bitCount(batch) != 1)
        {
            System.err.println("dta bench: --batch must be 1, 2, 4, 8 or 16");
            return 2;
        }
        final ApplianceConfig appliance = config.load("bench");
        if (null == appliance)
        {
            return 2;
        }
        if (redundancy < 1 || redundancy > appliance.redundancy().max())
        {
            System.err.println("dta bench: --redundancy must be 1.." + appliance.redundancy().max());
            return 2;
        }
        final EngineBench bench = new EngineBench(primitive, appliance, redundancy, batch, 1);
        final EngineBench.Result r = bench.run(warmup, reports);
        final long drops = bench.engine().counters().totalDrops();
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("primitive", primitive.name().toLowerCase());
        out.put("reports", r.reports());
        out.put("frames", r.frames());
        out.put("seconds", r.seconds());
        out.put("reportsPerSecond", Math.round(r.reportsPerSecond()));
        out.put("framesPerSecond", Math.round(r.framesPerSecond()));
        out.put("allocatedBytesPerReport", r.allocatedBytesPerReport());
        out.put("gcCount", r.gcCount());
        out.put("drops", drops);
        out.put("redundancy", redundancy);
        out.put("batchSize", batch);
        out.put("reportsPerCpuSecond", Math.round(r.reportsPerCpuSecond()));
        out.put("agronaBoundsChecks", DirectBuffer.SHOULD_BOUNDS_CHECK);
        if (json)
        {
            System.out.println(new ObjectMapper().writeValueAsString(out));
        }
        else
        {
            System.out.printf("%s: %.2f M reports/s, %.2f M frames/s, %.3f bytes allocated per report, %d GCs " +
                "(%d reports in %.2f s, %d drops; %.2f M reports per CPU second; Agrona bounds checks %s)%n",
                out.get("primitive"), r.reportsPerSecond() / 1e6, r.framesPerSecond() / 1e6,
                r.allocatedBytesPerReport(), r.gcCount(), r.reports(), r.seconds(), drops,
                r.reportsPerCpuSecond() / 1e6, DirectBuffer.SHOULD_BOUNDS_CHECK ? "on" : "off");
        }
        if (drops > 0)
        {
            System.err.println("dta bench: warning: the engine dropped " + drops + " reports or responses (" +
                bench.engine().counters().get(EngineCounter.DROP_GRACE_PERIOD) + " in grace periods)");
        }
        return 0;
    }
}
