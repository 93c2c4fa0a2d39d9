package io.dta.appliance.cli;

import java.io.Console;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether standard error is a terminal, for progress bars drawn in place on it.
 * <p>
 * {@link Console#isTerminal()} answers for standard input and output, not for standard error: with
 * {@code dta gen --json > summary.json} on a terminal the bar was not drawn, and with {@code 2> gen.log} it wrote
 * carriage returns and erase-line escapes into the log. On Linux the device behind file descriptor 2 says it
 * directly; elsewhere the console's answer is the best there is.
 */
final class StderrTerminal
{
    private static final Path STDERR_LINK = Path.of("/proc/self/fd/2");
    private static final Path STDOUT_LINK = Path.of("/proc/self/fd/1");

    private StderrTerminal()
    {
    }

    /**
     * @return true when standard error is (most likely) a terminal.
     */
    static boolean isTerminal()
    {
        try
        {
            return isTerminalDevice(Files.readSymbolicLink(STDERR_LINK).toString());
        }
        catch (final IOException | UnsupportedOperationException | SecurityException ex)
        {
            final Console console = System.console();
            return null != console && console.isTerminal();
        }
    }

    /**
     * @return true when standard output is a terminal (known on Linux only; false elsewhere): a progress bar on
     * standard error would then break up the lines printed there.
     */
    static boolean isStdoutTerminal()
    {
        try
        {
            return isTerminalDevice(Files.readSymbolicLink(STDOUT_LINK).toString());
        }
        catch (final IOException | UnsupportedOperationException | SecurityException ex)
        {
            return false;
        }
    }

    /**
     * @param target what {@code /proc/self/fd/2} links to, e.g. {@code /dev/pts/3} or {@code pipe:[12345]}.
     * @return true when it is a terminal device.
     */
    static boolean isTerminalDevice(final String target)
    {
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
    }
}
