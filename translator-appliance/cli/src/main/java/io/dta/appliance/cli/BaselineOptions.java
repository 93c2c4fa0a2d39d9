package io.dta.appliance.cli;

import io.dta.appliance.gate.BaselineGate;
import io.dta.appliance.gate.BenchSide;
import io.dta.appliance.gate.CpuPin;
import io.dta.appliance.gate.RoundArgs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code dta bench --baseline DIR [--max-regression PCT] [--report FILE.html]}: the gate's options checked, then the
 * gate run with the bench's own arguments for each round.
 */
final class BaselineOptions
{
    private BaselineOptions()
    {
    }

    /**
     * @param baseline      the baseline's directory (null: refused, --report alone means nothing).
     * @param report        the HTML report to write, or null.
     * @param maxRegression the regression allowed, in percent.
     * @param rounds        rounds of each side.
     * @param cpu           {@code --cpu}: a CPU, "none", or null for the last CPU this process may use.
     * @param json          print JSON.
     * @param commandLine   the whole command line as given.
     * @return the exit status.
     * @throws Exception when interrupted or no scratch directory can be made.
     */
    static int gate(
        final Path baseline,
        final Path report,
        final double maxRegression,
        final int rounds,
        final String cpu,
        final boolean json,
        final List<String> commandLine) throws Exception
    {
        if (null == baseline)
        {
            System.err.println("dta bench: --report needs --baseline DIR (it reports the comparison of two builds)");
            return 2;
        }
        final Path launcher = baseline.resolve("bin").resolve("dta");
        if (!Files.isRegularFile(launcher) || !Files.isExecutable(launcher))
        {
            System.err.println("dta bench: --baseline " + baseline + ": no executable bin/dta in it (give an " +
                "unpacked release archive or a source checkout)");
            return 2;
        }
        if (!(maxRegression >= 0 && maxRegression < 100))
        {
            System.err.println("dta bench: --max-regression must be 0 or more and below 100 (percent)");
            return 2;
        }
        if (rounds < 1)
        {
            System.err.println("dta bench: --rounds must be positive");
            return 2;
        }
        if (null != report && (null == report.toAbsolutePath().getParent() ||
            !Files.isDirectory(report.toAbsolutePath().getParent())))
        {
            System.err.println("dta bench: --report " + report + ": its directory does not exist");
            return 2;
        }
        final CpuPin pin = pin(cpu);
        if (null == pin)
        {
            return 2;
        }
        if (null == cpu && CpuPin.NONE.equals(pin))
        {
            System.err.println("dta bench: --baseline: " + (CpuPin.tasksetAvailable() ?
                "the CPUs this process may use could not be read (/proc/self/status)" :
                "taskset (util-linux) not found") + ": rounds run on any CPU");
        }
        return new BaselineGate(BenchSide.thisBuild(), BenchSide.baseline(baseline), pin, RoundArgs.of(commandLine),
            rounds, maxRegression, System.out, System.err).run(json, report);
    }

    /**
     * @return the pinning {@code --cpu} asks for, or null when refused (said).
     */
    private static CpuPin pin(final String cpu)
    {
        if (null == cpu)
        {
            return CpuPin.lastAllowed();
        }
        if ("none".equals(cpu))
        {
            return CpuPin.NONE;
        }
        final int n;
        try
        {
            n = Integer.parseInt(cpu);
        }
        catch (final NumberFormatException ex)
        {
            System.err.println("dta bench: --cpu must be a CPU number or none, not " + cpu);
            return null;
        }
        final int last = CpuPin.lastAllowed().cpu();
        if (n < 0 || last >= 0 && n > last)
        {
            System.err.println("dta bench: --cpu " + n + ": this process may not run there (CPUs 0.." +
                last + ")");
            return null;
        }
        if (!CpuPin.tasksetAvailable())
        {
            System.err.println("dta bench: --cpu needs taskset (util-linux), which is not on the PATH");
            return null;
        }
        return new CpuPin(n);
    }
}
