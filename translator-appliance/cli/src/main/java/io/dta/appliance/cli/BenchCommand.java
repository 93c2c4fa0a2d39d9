package io.dta.appliance.cli;

import io.dta.appliance.bench.BenchInput;
import io.dta.appliance.bench.EngineBench;
import io.dta.appliance.io.RunFiles;
import io.dta.config.ApplianceConfig;
import io.dta.config.FileErrors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * {@code dta bench}: the engine alone on one thread, or through DPDK on one core, after a warm-up; synthetic reports of
 * one primitive ({@code --primitive}) or every frame of a capture ({@code --in}), fed round and round.
 */
@Command(
    name = "bench",
    header = "Measure the translation engine: alone on one thread, or through DPDK on one core.",
    mixinStandardHelpOptions = true,
    description = {
        "Measure the translation engine alone on one thread: pre-built report frames in memory, frames out to a " +
            "discarding sink that nobody answers (open loop, as dta replay without --responses), or with " +
            "--closed-loop the collector's ACKs and ATOMIC ACKs answered as its soft responder would. Prints " +
            "reportsPerSecond, roceFramesOutPerSecond, allocatedBytesPerReport (this thread's allocation over the measured " +
            "phase), gcCount, reportsPerCpuSecond (over the thread's CPU time: robust on a shared machine; through " +
            "DPDK with --compare-c only) and whether Agrona's bounds checks were on (agronaBoundsChecks; bin/dta " +
            "turns them off for every command; see docs/performance.md).",
        "The reports are synthetic ones of one --primitive, addressed to the first collector of the configuration " +
            "that has that primitive's region (a Key-Write store, a Key-Increment counter store, a list, a postcard " +
            "store, a sketch; refused when none has it), or with --in every frame of a capture (your traffic), fed " +
            "round and round in capture order; then the drops by reason over the measured phase are printed too. " +
            "totalDrops counts what the engine dropped while measuring, never in the warm-up, and drops names the " +
            "reasons.",
        "With --baseline DIR the rounds' rates of this build and of DIR's are compared (see docs/perf-regression.md)." },
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = { "0:measured; with --baseline: no regression (the ratio of medians is within --max-regression)",
        "1:the benchmark could not run (a round failed, a file could not be read or written)",
        "2:bad options or configuration",
        "3:with --baseline: a regression: this build is slower than the baseline by more than --max-regression, " +
            "and so is the whole 95 %% interval",
        "4:with --baseline: inconclusive: slower than allowed by the medians, but the interval reaches into the " +
            "allowance (more --rounds, or a quieter machine)" })
public final class BenchCommand implements Callable<Integer>
{
    @Mixin
    private ConfigOption config = new ConfigOption();

    @Spec
    private CommandSpec spec;

    @Mixin
    private BenchOptions o = new BenchOptions();

    /**
     * {@inheritDoc}
     */
    @Override
    public Integer call() throws Exception
    {
        // SIGINT and SIGTERM end the JVM through its shutdown hooks, which say so in one line as dta replay does (a
        // bench writes no output file, and its temporary capture is deleted on exit).
        if (null != o.cpu && null == o.baseline)
        {
            System.err.println("dta bench: --cpu needs --baseline DIR (it pins the rounds of a comparison)");
            return 2;
        }
        try (RunFiles signalled = RunFiles.onSignal("bench", null, System.err))
        {
            return null == o.baseline && null == o.report ? bench() : BaselineOptions.gate(o.baseline, o.report,
                o.maxRegression, o.rounds, o.cpu, o.json, spec.commandLine().getParseResult().originalArgs());
        }
    }

    private boolean given(final String option)
    {
        return spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    private int bench() throws Exception
    {
        final BenchOptionChecks checks = new BenchOptionChecks(o, spec.commandLine().getParseResult());
        final String problem = checks.beforeConfiguration();
        if (null != problem)
        {
            System.err.println("dta bench: " + problem);
            return 2;
        }
        final ApplianceConfig appliance = config.load("bench");
        if (null == appliance)
        {
            return 2;
        }
        final String misfit = checks.againstConfiguration(appliance);
        if (null != misfit)
        {
            System.err.println("dta bench: " + misfit);
            return 2;
        }
        if (o.capture())
        {
            return benchCapture(appliance);
        }
        final String unfit = checks.synthetic(appliance);
        if (null != unfit)
        {
            System.err.println("dta bench: " + unfit);
            return 2;
        }
        if (o.dpdk())
        {
            return new BenchOnDpdk(o, given("--rounds")).run(appliance, null);
        }
        return new BenchOnEngine(o).run(
            new EngineBench(o.primitive, appliance, o.redundancy, o.batch, o.switches, !o.closedLoop, 1), appliance);
    }

    /**
     * {@code --in}: the capture is read before any EAL starts, so that a file that cannot be benched is said in the
     * words of {@code dta replay}, exit 1, as the replay says it.
     */
    private int benchCapture(final ApplianceConfig base) throws Exception
    {
        final String unreadable = FileErrors.unreadable(o.in);
        if (null != unreadable)
        {
            System.err.println("dta bench: cannot read " + o.in + ": " + unreadable);
            return 1;
        }
        final BenchInput frames;
        try
        {
            frames = BenchInput.capture(o.in, base.translator().mac());
        }
        catch (final IOException ex)
        {
            System.err.println("dta bench: " + FileErrors.reason(ex));
            return 1;
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("dta bench: " + ex.getMessage());
            return 1;
        }
        if (null != frames.cutShortWarning())
        {
            System.err.println("dta bench: warning: " + frames.cutShortWarning());
        }
        // The configuration as given, translated as dta replay translates the capture; --batch only when said.
        final ApplianceConfig appliance = given("--batch") ?
            EngineBench.withBatchSize(base, o.batch) : base;
        if (o.dpdk())
        {
            return new BenchOnDpdk(o, given("--rounds")).run(appliance, frames);
        }
        return new BenchOnEngine(o).run(new EngineBench(frames, appliance, !o.closedLoop), appliance);
    }
}
