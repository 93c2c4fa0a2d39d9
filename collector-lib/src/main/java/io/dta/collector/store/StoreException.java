package io.dta.collector.store;

/**
 * A store directory is missing, unreadable or does not match the configuration.
 */
public final class StoreException extends Exception
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message what is wrong, naming the file.
     */
    public StoreException(final String message)
    {
        super(message);
    }

    /**
     * @param message what is wrong, naming the file.
     * @param cause   the underlying I/O error.
     */
    public StoreException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
