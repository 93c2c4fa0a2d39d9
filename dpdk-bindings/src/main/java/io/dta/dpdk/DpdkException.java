package io.dta.dpdk;

/**
 * A DPDK call failed. Carries DPDK's error number (a positive {@code errno} / {@code rte_errno} value) when the
 * call gave one.
 */
public final class DpdkException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final int errorNumber;

    /**
     * @param message     what failed, with DPDK's explanation.
     * @param errorNumber the positive error number, or 0 when unknown.
     */
    public DpdkException(final String message, final int errorNumber)
    {
        super(message);
        this.errorNumber = errorNumber;
    }

    /**
     * @return the positive error number, or 0 when unknown.
     */
    public int errorNumber()
    {
        return errorNumber;
    }
}
