package io.dta.dpdk;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Finds and loads {@code libdta_shim.so}, the C shim over DPDK's inline fast path. Its {@code dlopen} also loads
 * the DPDK libraries it links, and one {@link SymbolLookup} over it resolves both the shim's and DPDK's symbols.
 * <p>
 * Loading is lazy: nothing happens until {@link #lookup()} or {@link #isAvailable()} is called, so the plain-Java
 * paths of the appliance never touch native code. The shim is looked for, in order, at the system property
 * {@code dta.shim}, the environment variable {@code DTA_SHIM}, {@code lib/libdta_shim.so} beside the directory
 * of the jar, and in the source tree's {@code dpdk-bindings/target/native} (for {@code bin/dta} and tests).
 */
public final class DpdkLibrary
{
    /** File name of the shim. */
    public static final String SHIM_FILE = "libdta_shim.so";

    /** System property naming the shim's absolute path. */
    public static final String SHIM_PROPERTY = "dta.shim";

    /** What to install when DPDK is missing (Debian/Ubuntu). */
    public static final String INSTALL_HINT = "apt-get install dpdk libdpdk-dev pkg-config gcc";

    private static final Object LOCK = new Object();
    private static SymbolLookup lookup;
    private static DpdkUnavailableException failure;

    private DpdkLibrary()
    {
    }

    /**
     * @return true when the shim and DPDK load in this process (loads them on first call).
     */
    public static boolean isAvailable()
    {
        try
        {
            lookup();
            return true;
        }
        catch (final DpdkUnavailableException ex)
        {
            return false;
        }
    }

    /**
     * @return why DPDK cannot be used (what to install), or null when it can; loads it on first call.
     */
    public static String unavailableReason()
    {
        try
        {
            lookup();
            return null;
        }
        catch (final DpdkUnavailableException ex)
        {
            return ex.getMessage();
        }
    }

    /**
     * Loads the shim once per process.
     *
     * @return a lookup resolving the shim's and DPDK's symbols.
     * @throws DpdkUnavailableException when it cannot be loaded; the message says what to install.
     */
    public static SymbolLookup lookup()
    {
        synchronized (LOCK)
        {
            if (null != lookup)
            {
                return lookup;
            }
            if (null != failure)
            {
                throw failure;
            }
            final List<Path> candidates = candidates();
            for (final Path candidate : candidates)
            {
                if (Files.isRegularFile(candidate))
                {
                    try
                    {
                        lookup = SymbolLookup.libraryLookup(candidate, Arena.global());
                        return lookup;
                    }
                    catch (final IllegalArgumentException | IllegalCallerException ex)
                    {
                        failure = new DpdkUnavailableException("DPDK is not usable: cannot load " + candidate +
                            " (" + ex.getMessage() + "). The DPDK 22.11 runtime libraries may be missing: " +
                            INSTALL_HINT + "; the JVM also needs --enable-native-access=ALL-UNNAMED.", ex);
                        throw failure;
                    }
                }
            }
            failure = new DpdkUnavailableException("DPDK is not usable: " + SHIM_FILE + " was not found (looked at " +
                candidates + "). Install DPDK 22.11 and the build tools (" + INSTALL_HINT + "), rebuild " +
                "(mvn -B -DskipTests -pl dpdk-bindings -am package), or pass -D" + SHIM_PROPERTY +
                "=/path/to/" + SHIM_FILE + ".", null);
            throw failure;
        }
    }

    /**
     * @return the paths where the shim is looked for, in order ({@link NativeLibraryPaths}).
     */
    public static List<Path> candidates()
    {
        return NativeLibraryPaths.candidates(DpdkLibrary.class, SHIM_PROPERTY, "DTA_SHIM", SHIM_FILE, "dpdk-bindings");
    }
}
