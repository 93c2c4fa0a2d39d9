package io.dta.dpdk;

/**
 * DPDK or the {@code libdta_shim.so} wrapper cannot be loaded in this process. The message says what to install
 * or which property to set.
 */
public final class DpdkUnavailableException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is missing and how to get it.
     * @param cause   the loader's error, or null.
     */
    public DpdkUnavailableException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
