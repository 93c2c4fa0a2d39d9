package io.dta.appliance.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * Entry point of the {@code dta} command line: one subcommand per job of the appliance.
 */
@Command(
    name = "dta",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Direct Telemetry Access translator: DTA reports in, RoCEv2 frames out.",
    subcommands = { DemoCommand.class, DecodeCommand.class, GenCommand.class, ReplayCommand.class, RunCommand.class, SendCommand.class, CollectorCommand.class, QueryCommand.class, BenchCommand.class, StatCommand.class, ConfigCommand.class, CommandLine.HelpCommand.class })
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
        int exitCode;
        try
        {
            exitCode = newCommandLine().execute(args);
        }
        catch (final OutOfMemoryError ex)
        {
            // picocli hands only exceptions to its handlers; an error would end the JVM with a stack trace.
            System.err.println("dta: out of memory (" + ex.getMessage() + "); raise the JVM's limits (-Xmx, " +
                "-XX:MaxDirectMemorySize) through DTA_JAVA_OPTS with bin/dta");
            exitCode = 1;
        }
        System.exit(exitCode);
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
            .setUsageHelpAutoWidth(true)
            .setParameterExceptionHandler(DtaCommand::refuseArguments);
    }

    /**
     * A bad command line is refused in one line, as every other bad input is (picocli printed the whole usage
     * after it, some 70 lines that pushed the reason out of sight); {@code --help} still shows the usage.
     */
    private static int refuseArguments(final CommandLine.ParameterException ex, final String[] args)
    {
        final CommandLine command = ex.getCommandLine();
        final PrintWriter err = command.getErr();
        final String name = command.getCommandSpec().qualifiedName();
        err.println(name + ": " + ex.getMessage() + " (" + name + " --help lists the options)");
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        err.flush();
        return command.getCommandSpec().exitCodeOnInvalidInput();
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
