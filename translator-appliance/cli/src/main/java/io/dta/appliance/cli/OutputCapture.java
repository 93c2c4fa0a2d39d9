package io.dta.appliance.cli;

import io.dta.appliance.io.OutputFile;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks a command's output capture before anything is written: a writer creates (truncates) its file before the
 * inputs are read, so an output that is one of the inputs would destroy it, and a missing directory would only be
 * named by the exception's bare path.
 */
final class OutputCapture
{
    private OutputCapture()
    {
    }

    /**
     * @param command the command's name, for the message.
     * @param out     the output capture.
     * @param inputs  the captures the command reads (null entries are ignored).
     * @return 0 when {@code out} may be written; otherwise the exit code after a message on stderr: 2 when it is one
     * of the inputs (also through a link), 1 when its directory does not exist or it is a directory.
     */
    static int check(final String command, final Path out, final Path... inputs)
    {
        final PrintWriter err = new PrintWriter(System.err, true);
        return check(err, command, out, inputs);
    }

    /**
     * As {@link #check(String, Path, Path...)}, with the messages on {@code err}.
     *
     * @param err     where the messages go.
     * @param command the command's name, for the message.
     * @param out     the output file.
     * @param inputs  the files the command reads (null entries are ignored).
     * @return 0 when {@code out} may be written; otherwise the exit code, as {@link #check(String, Path, Path...)}.
     */
    static int check(final PrintWriter err, final String command, final Path out, final Path... inputs)
    {
        for (final Path input : inputs)
        {
            if (null != input && sameFile(out, input))
            {
                err.println("dta " + command + ": --out " + out + " would overwrite its input " + input);
                err.flush();
                return 2;
            }
        }
        if (Files.isDirectory(out))
        {
            err.println("dta " + command + ": cannot write " + out + ": is a directory");
            err.flush();
            return 1;
        }
        final Path directory = out.toAbsolutePath().getParent();
        if (null != directory && !Files.isDirectory(directory))
        {
            err.println("dta " + command + ": cannot write " + out + ": no directory " + directory);
            err.flush();
            return 1;
        }
        return 0;
    }

    /**
     * Whether writing {@code a} would write {@code b}: the same file (also through links) when both exist, else the
     * same path once symbolic links are followed, dangling ones included (a link to a capture not yet written).
     *
     * @param a one path.
     * @param b the other.
     * @return true when they name the same destination.
     */
    static boolean sameFile(final Path a, final Path b)
    {
        try
        {
            if (Files.exists(a) && Files.exists(b))
            {
                return Files.isSameFile(a, b);
            }
            return OutputFile.followLinks(a).equals(OutputFile.followLinks(b));
        }
        catch (final IOException ex)
        {
            return false;
        }
    }
}
