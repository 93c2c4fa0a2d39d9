package io.dta.dpdk;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the project's own native libraries (the DPDK shim, the C reference loop) are looked for, in order: a
 * system property, an environment variable, {@code lib/} beside the jar (or class directory) and one level up
 * (a distribution), then {@code <module>/target/native/} in a source tree, searched from the code's location
 * upwards (a build).
 */
public final class NativeLibraryPaths
{
    private static final int TREE_LEVELS = 4;

    private NativeLibraryPaths()
    {
    }

    /**
     * @param anchor   a class of the code that loads the library (its jar or class directory is the start).
     * @param property system property naming the library's path, checked first.
     * @param env      environment variable naming the library's path, checked second.
     * @param fileName the library's file name.
     * @param module   the Maven module whose {@code target/native} holds the built library.
     * @return candidate paths, in order, without repeats.
     */
    public static List<Path> candidates(
        final Class<?> anchor, final String property, final String env, final String fileName, final String module)
    {
        final List<Path> paths = new ArrayList<>();
        addNamed(paths, System.getProperty(property));
        addNamed(paths, System.getenv(env));
        final Path codeSource = codeSource(anchor);
        if (null != codeSource)
        {
            // .../<module>/target/dta.jar or .../<module>/target/classes
            final Path dir = Files.isDirectory(codeSource) ? codeSource : codeSource.getParent();
            if (null != dir)
            {
                add(paths, dir.resolve("lib").resolve(fileName));
                if (null != dir.getParent())
                {
                    add(paths, dir.getParent().resolve("lib").resolve(fileName));
                }
                Path ancestor = dir.getParent();
                for (int i = 0; i < TREE_LEVELS && null != ancestor; i++, ancestor = ancestor.getParent())
                {
                    add(paths, ancestor.resolve(module).resolve("target").resolve("native").resolve(fileName));
                }
            }
        }
        return paths;
    }

    private static void addNamed(final List<Path> paths, final String value)
    {
        if (null != value && !value.isBlank())
        {
            add(paths, Path.of(value).toAbsolutePath());
        }
    }

    private static void add(final List<Path> paths, final Path path)
    {
        if (!paths.contains(path))
        {
            paths.add(path);
        }
    }

    private static Path codeSource(final Class<?> anchor)
    {
        try
        {
            final var source = anchor.getProtectionDomain().getCodeSource();
            return null == source ? null : Path.of(source.getLocation().toURI()).toAbsolutePath();
        }
        catch (final URISyntaxException | SecurityException | IllegalArgumentException ex)
        {
            return null;
        }
    }
}
