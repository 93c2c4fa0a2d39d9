package io.dta.appliance.stat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which Linux PID namespace this process lives in, as the low 32 bits of the namespace's inode number
 * ({@code /proc/self/ns/pid -> pid:[4026531836]}). A pid means a process only within its namespace: a reader that
 * cannot see a writer's pid can tell a dead writer from one in another container only by comparing namespaces.
 */
public final class PidNamespace
{
    /** The tag of an unknown namespace (no /proc, or a file written before the tag existed). */
    public static final int UNKNOWN = 0;

    private static final int CURRENT = read(Path.of("/proc/self/ns/pid"));

    private PidNamespace()
    {
    }

    /**
     * @return this process's namespace tag, or {@link #UNKNOWN}.
     */
    public static int current()
    {
        return CURRENT;
    }

    static int read(final Path link)
    {
        try
        {
            return parse(Files.readSymbolicLink(link).toString());
        }
        catch (final IOException | UnsupportedOperationException | SecurityException ex)
        {
            return UNKNOWN;
        }
    }

    /**
     * @param target a namespace link's target, e.g. {@code pid:[4026531836]}.
     * @return the low 32 bits of its inode number, or {@link #UNKNOWN} if the target has another shape.
     */
    static int parse(final String target)
    {
        final int open = target.indexOf('[');
        final int close = target.lastIndexOf(']');
        if (!target.startsWith("pid:") || open < 0 || close != target.length() - 1 || close - open < 2)
        {
            return UNKNOWN;
        }
        try
        {
            return (int)Long.parseUnsignedLong(target.substring(open + 1, close));
        }
        catch (final NumberFormatException ex)
        {
            return UNKNOWN;
        }
    }
}
