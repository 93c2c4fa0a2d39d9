package io.dta.appliance.gate;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code dta bench ... --baseline DIR}: this build and the baseline run the same benchmark in alternating rounds, one
 * JVM per round started by each side's own launcher, then the ratio of their medians with its bootstrap interval and
 * a {@link Verdict}.
 */
public final class BaselineGate
{
    private final BenchSide candidate;
    private final BenchSide baseline;
    private final CpuPin pin;
    private final List<String> benchArgs;
    private final int rounds;
    private final double maxRegressionPercent;
    private final PrintStream out;
    private final PrintStream err;

    /**
     * @param candidate            this build.
     * @param baseline             the build compared against.
     * @param pin                  the CPU both sides' rounds run on.
     * @param benchArgs            the arguments of each round's {@code dta bench} (no {@code --json}).
     * @param rounds               rounds of each side.
     * @param maxRegressionPercent how much slower the candidate may be.
     * @param out                  where the result goes.
     * @param err                  where progress and failures go.
     */
    public BaselineGate(
        final BenchSide candidate,
        final BenchSide baseline,
        final CpuPin pin,
        final List<String> benchArgs,
        final int rounds,
        final double maxRegressionPercent,
        final PrintStream out,
        final PrintStream err)
    {
        this.candidate = candidate.pinned(pin);
        this.baseline = baseline.pinned(pin);
        this.pin = pin;
        this.benchArgs = List.copyOf(benchArgs);
        this.rounds = rounds;
        this.maxRegressionPercent = maxRegressionPercent;
        this.out = out;
        this.err = err;
    }

    /**
     * @param json   print one JSON object rather than text.
     * @param report an HTML report to write, or null.
     * @return the exit status: the verdict's, 1 when a round failed or the report could not be written.
     * @throws IOException          when no scratch directory can be made.
     * @throws InterruptedException when interrupted.
     */
    public int run(final boolean json, final Path report) throws IOException, InterruptedException
    {
        final Path scratch = Files.createTempDirectory("dta-gate");
        try
        {
            final GateResult result;
            try
            {
                result = measure(scratch);
            }
            catch (final BenchSide.RoundFailed ex)
            {
                err.println("dta bench: --baseline: a round failed, no verdict: " + ex.getMessage());
                return 1;
            }
            if (null != report)
            {
                try
                {
                    HtmlReport.write(result, report);
                }
                catch (final IOException ex)
                {
                    err.println("dta bench: cannot write the report " + report + ": " + ex.getMessage());
                    return 1;
                }
            }
            print(result, json);
            return result.verdict().exitStatus();
        }
        finally
        {
            try (Stream<Path> files = Files.walk(scratch))
            {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private GateResult measure(final Path scratch)
        throws IOException, InterruptedException, BenchSide.RoundFailed
    {
        final List<Map<String, Object>> candidateRounds = new ArrayList<>();
        final List<Map<String, Object>> baselineRounds = new ArrayList<>();
        for (int r = 0; r < rounds; r++)
        {
            // Alternating which side goes first, so that neither always runs on the warmer (or hotter) machine.
            final boolean baselineFirst = 0 == r % 2;
            final BenchSide first = baselineFirst ? baseline : candidate;
            final BenchSide second = baselineFirst ? candidate : baseline;
            final Map<String, Object> a = first.round(benchArgs, scratch);
            final Map<String, Object> b = second.round(benchArgs, scratch);
            final Map<String, Object> c = baselineFirst ? b : a;
            final Map<String, Object> base = baselineFirst ? a : b;
            candidateRounds.add(c);
            baselineRounds.add(base);
            final GateRate rate = GateRate.choose(List.of(c), List.of(base));
            err.printf("dta bench: round %d of %d: candidate %.3f M, baseline %.3f M %s%n", r + 1, rounds,
                rate.of(c) / 1e6, rate.of(base) / 1e6, rate.key());
        }
        final GateRate rate = GateRate.choose(candidateRounds, baselineRounds);
        final RatioInterval interval = RatioInterval.bootstrap(rate.of(candidateRounds), rate.of(baselineRounds));
        return new GateResult(benchArgs, pin, candidateRounds, baselineRounds, rate, interval, maxRegressionPercent,
            Verdict.of(interval, maxRegressionPercent));
    }

    private void print(final GateResult result, final boolean json) throws IOException
    {
        if (json)
        {
            out.println(new ObjectMapper().writeValueAsString(result.toJson()));
            return;
        }
        final RatioInterval i = result.interval();
        out.printf("dta bench %s (every round on CPU %s)%n", String.join(" ", result.benchArgs()),
            result.pin().describe());
        for (int r = 0; r < result.candidateRounds().size(); r++)
        {
            out.printf("  round %d: candidate %.3f M, baseline %.3f M %s%n", r + 1,
                result.rate().of(result.candidateRounds().get(r)) / 1e6,
                result.rate().of(result.baselineRounds().get(r)) / 1e6, result.rate().key());
        }
        out.printf("  candidate / baseline (medians) = %.3f, %d %% interval %.3f .. %.3f (bootstrap over rounds); " +
            "allowed down to %.3f (--max-regression %s %%)%n", i.ratio(), Math.round(RatioInterval.CONFIDENCE * 100),
            i.low(), i.high(), Verdict.floor(result.maxRegressionPercent()), result.maxRegressionPercent());
        out.printf("  verdict: %s (exit %d)%n", result.verdict().name().toLowerCase().replace('_', ' '),
            result.verdict().exitStatus());
    }

    /**
     * A gate's measurements and conclusion.
     *
     * @param benchArgs            the arguments each round ran with.
     * @param pin                  the CPU every round ran on.
     * @param candidateRounds      this build's rounds' JSON results, in order.
     * @param baselineRounds       the baseline's, in order.
     * @param rate                 the rate compared.
     * @param interval             the ratio of medians and its interval.
     * @param maxRegressionPercent the regression allowed.
     * @param verdict              the conclusion.
     */
    public record GateResult(
        List<String> benchArgs,
        CpuPin pin,
        List<Map<String, Object>> candidateRounds,
        List<Map<String, Object>> baselineRounds,
        GateRate rate,
        RatioInterval interval,
        double maxRegressionPercent,
        Verdict verdict)
    {
        /**
         * @return the result as {@code --json} prints it.
         */
        public Map<String, Object> toJson()
        {
            final Map<String, Object> m = new LinkedHashMap<>();
            m.put("bench", benchArgs);
            m.put("cpu", pin.describe());
            m.put("rounds", candidateRounds.size());
            m.put("rate", rate.key());
            m.put("candidateRates", rate.of(candidateRounds));
            m.put("baselineRates", rate.of(baselineRounds));
            m.put("candidateMedian", RatioInterval.median(rate.of(candidateRounds)));
            m.put("baselineMedian", RatioInterval.median(rate.of(baselineRounds)));
            m.put("ratio", interval.ratio());
            m.put("ratioLow", interval.low());
            m.put("ratioHigh", interval.high());
            m.put("confidence", RatioInterval.CONFIDENCE);
            m.put("bootstrapResamples", RatioInterval.RESAMPLES);
            m.put("bootstrapSeed", RatioInterval.SEED);
            m.put("maxRegressionPercent", maxRegressionPercent);
            m.put("verdict", verdict.name().toLowerCase().replace('_', ' '));
            m.put("exitStatus", verdict.exitStatus());
            m.put("candidate", candidateRounds);
            m.put("baseline", baselineRounds);
            return m;
        }
    }
}
