package io.dta.appliance.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of the {@code dta} command line: one subcommand per job of the appliance.
 */
@Command(
    name = "dta",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Direct Telemetry Access translator: DTA reports in, RoCEv2 frames out.",
    subcommands = { DemoCommand.class, DecodeCommand.class, GenCommand.class, ReplayCommand.class, RunCommand.class, CollectorCommand.class, QueryCommand.class, BenchCommand.class, StatCommand.class, CommandLine.HelpCommand.class })
public final class DtaCommand implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * Runs the CLI and exits with the subcommand's exit code.
     *
     * @param args command line arguments.
     */
    public static void main(final String[] args)
    {
        System.exit(newCommandLine().execute(args));
    }

    /**
     * Builds the command line with the project's conventions, so tests run exactly what users run.
     *
     * @return a configured picocli command line.
     */
    public static CommandLine newCommandLine()
    {
        // The descriptions are written as lines of up to 120 columns: at picocli's default of 80 each one broke
        // into a long and a short line. A terminal's own width still wins when picocli can detect it.
        return new CommandLine(new DtaCommand())
            .setCaseInsensitiveEnumValuesAllowed(true)
            .setUsageHelpWidth(120)
            .setUsageHelpAutoWidth(true);
    }

    /**
     * {@inheritDoc}
     */
    @Override
    public void run()
    {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }
}
