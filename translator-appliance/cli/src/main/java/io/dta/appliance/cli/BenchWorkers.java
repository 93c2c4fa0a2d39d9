package io.dta.appliance.cli;

import io.dta.appliance.bench.DpdkBench;
import io.dta.appliance.bench.WorkersBench;
import io.dta.config.ApplianceConfig;
import io.dta.dpdk.DpdkException;
import org.agrona.DirectBuffer;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code dta bench --io dpdk --workers W}: W workers on lcores of their own, optionally against one worker
 * ({@code --scaling}), and each round's figures.
 */
final class BenchWorkers
{
    private final BenchOptions o;
    private final boolean onHugepages;
    private final boolean roundsGiven;

    /**
     * @param options     the options, checked.
     * @param onHugepages whether the EAL runs on hugepages.
     * @param roundsGiven whether the command line gave {@code --rounds}.
     */
    BenchWorkers(final BenchOptions options, final boolean onHugepages, final boolean roundsGiven)
    {
        this.o = options;
        this.onHugepages = onHugepages;
        this.roundsGiven = roundsGiven;
    }

    /**
     * @param appliance the configuration.
     * @param ealArgs   the EAL arguments of {@code --eal}, settled.
     * @return the exit status.
     * @throws Exception when the JSON cannot be written.
     */
    int run(final ApplianceConfig appliance, final List<String> ealArgs) throws Exception
    {
        final int measuredRounds = roundsGiven || o.scaling || o.compareC ? o.rounds : 1;
        final WorkersBench.Scaling s;
        try
        {
            s = DpdkBench.runWorkers(o.primitive, appliance, o.redundancy, o.batch, o.warmup, o.reports, ealArgs,
                o.sourceReports, o.workers, measuredRounds, o.scaling, o.compareC);
        }
        catch (final DpdkException | IllegalStateException | IllegalArgumentException ex)
        {
            System.err.println("dta bench: " + ex.getMessage());
            return 1;
        }
        if (o.json)
        {
            BenchOutput.printJson(figures(s, measuredRounds), appliance);
            return 0;
        }
        System.out.printf("%s through DPDK (net_ring -> net_null, %d workers, %s), median of %d round(s): %.2f M " +
            "reports/s%n", o.primitiveName(), o.workers, onHugepages ? "hugepages" : "4 KB pages",
            measuredRounds, s.manyMedian() / 1e6);
        if (o.scaling)
        {
            System.out.printf("  one worker, alternating rounds: %.2f M reports/s; %d workers / one: %.3f%n",
                s.oneMedian() / 1e6, o.workers, s.ratio());
        }
        if (o.compareC)
        {
            System.out.printf("  C reference loop on %d lcores, alternating rounds: %.2f M reports/s; Java / C: %.3f%n",
                o.workers, s.referenceMedian() / 1e6, s.manyMedian() / s.referenceMedian());
        }
        final WorkersBench.Result last = s.many().getLast();
        for (int i = 0; i < last.perWorker().size(); i++)
        {
            final WorkersBench.Worker w = last.perWorker().get(i);
            System.out.printf("  worker %d (last round): %.2f M reports/s, %.3f bytes allocated per report, %d " +
                "handed off, %d taken over%n", i, w.reportsPerSecond() / 1e6, w.allocatedBytesPerReport(),
                w.handedOff(), w.takenOver());
        }
        return 0;
    }

    private Map<String, Object> figures(final WorkersBench.Scaling s, final int measuredRounds)
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("primitive", o.primitiveName());
        out.put("io", "dpdk");
        out.put("input", "ring");
        out.put("hugepages", onHugepages);
        out.put("openLoop", true);
        out.put("workers", o.workers);
        out.put("rounds", measuredRounds);
        out.put("redundancy", o.redundancy);
        out.put("batchSize", o.batch);
        out.put("reportsPerSecond", Math.round(s.manyMedian()));
        if (o.scaling)
        {
            out.put("oneWorkerReportsPerSecond", Math.round(s.oneMedian()));
            out.put("scaling", s.ratio());
            out.put("oneWorkerRounds", s.one().stream().map(BenchWorkers::round).toList());
        }
        out.put("workerRounds", s.many().stream().map(BenchWorkers::round).toList());
        if (o.compareC)
        {
            out.put("referenceReportsPerSecond", Math.round(s.referenceMedian()));
            out.put("javaToReference", s.manyMedian() / s.referenceMedian());
            out.put("referenceRounds", s.reference().stream().map(Math::round).toList());
        }
        out.put("agronaBoundsChecks", DirectBuffer.SHOULD_BOUNDS_CHECK);
        return out;
    }

    private static Map<String, Object> round(final WorkersBench.Result r)
    {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("workers", r.workers());
        m.put("reports", r.reports());
        m.put("frames", r.frames());
        m.put("seconds", r.seconds());
        m.put("reportsPerSecond", Math.round(r.reportsPerSecond()));
        m.put("drops", r.drops());
        m.put("gcCount", r.gcCount());
        final List<Map<String, Object>> each = new ArrayList<>();
        for (final WorkersBench.Worker w : r.perWorker())
        {
            final Map<String, Object> e = new LinkedHashMap<>();
            e.put("reports", w.reports());
            e.put("seconds", w.seconds());
            e.put("reportsPerSecond", Math.round(w.reportsPerSecond()));
            e.put("allocatedBytesPerReport", w.allocatedBytesPerReport());
            e.put("reportsHandedOff", w.handedOff());
            e.put("reportsTakenOver", w.takenOver());
            each.add(e);
        }
        m.put("perWorker", each);
        return m;
    }
}
