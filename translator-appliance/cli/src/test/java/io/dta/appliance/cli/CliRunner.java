package io.dta.appliance.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Runs the real {@code dta} command line in-process and captures what it prints.
 */
final class CliRunner
{
    record Result(int exitCode, String out, String err)
    {
    }

    private CliRunner()
    {
    }

    static synchronized Result run(final String... args)
    {
        final PrintStream oldOut = System.out;
        final PrintStream oldErr = System.err;
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        try
        {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            final int code = DtaCommand.newCommandLine().execute(args);
            System.out.flush();
            return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
        finally
        {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }
}
