package io.dta.appliance.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * What a command may do with the path it writes its output to: a symbolic link is written through, to its target,
 * and stays a link; a device ({@code /dev/null}) or a FIFO is written as a stream; only a regular file is the
 * command's own, to replace or, after a failed run, to remove.
 */
public final class OutputFile
{
    private static final int MAX_LINK_HOPS = 40;

    private OutputFile()
    {
    }

    /**
     * The path after following symbolic links at its last component, a dangling link's target included (a link to a
     * capture not yet written).
     *
     * @param path a path.
     * @return the absolute, normalised path the link chain ends at (the path itself when it is no link; the last link
     * of the chain when its target is no path, as {@code /proc/self/fd/1} to a pipe).
     * @throws IOException if a link cannot be read.
     */
    public static Path followLinks(final Path path) throws IOException
    {
        Path p = path.toAbsolutePath().normalize();
        for (int hops = 0; hops < MAX_LINK_HOPS && Files.isSymbolicLink(p); hops++)
        {
            final Path next = p.resolveSibling(Files.readSymbolicLink(p)).normalize();
            if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS) && Files.exists(p))
            {
                // A link the kernel follows to what no path names: /dev/stdout, /proc/self/fd/1 to "pipe:[1234]" or
                // "socket:[…]". The link is the way to it.
                return p;
            }
            p = next;
        }
        return p;
    }

    /**
     * @param target a path with its links followed ({@link #followLinks}).
     * @return whether it is a regular file or nothing yet: a file that may be written in place and replaced.
     */
    public static boolean isPlain(final Path target)
    {
        return !Files.exists(target, LinkOption.NOFOLLOW_LINKS) ||
            Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS);
    }

    /**
     * Removes what a failed run left at its output when that is a regular file, through a link too (the link stays):
     * no capture that looks like a result is left. A device or a FIFO is left alone.
     *
     * @param out the output as given.
     * @return whether a file was removed.
     */
    public static boolean removeFailed(final Path out)
    {
        try
        {
            final Path target = followLinks(out);
            return Files.isRegularFile(target, LinkOption.NOFOLLOW_LINKS) && Files.deleteIfExists(target);
        }
        catch (final IOException ex)
        {
            // The caller's message still says what went wrong; the stale file is the lesser problem.
            return false;
        }
    }
}
