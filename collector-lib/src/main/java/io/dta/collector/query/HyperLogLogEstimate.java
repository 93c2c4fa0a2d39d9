package io.dta.collector.query;

/**
 * A HyperLogLog cardinality estimate (Flajolet, Fusy, Gandouet, Meunier 2007) and how it was reached.
 *
 * @param cardinality   the estimate E* after the range correction.
 * @param raw           the raw estimate E = alpha_m · m² / Σ 2^(−M[j]).
 * @param zeroRegisters registers still 0 (V).
 * @param registers     m.
 * @param correction    which range correction gave {@code cardinality}.
 */
public record HyperLogLogEstimate(
    double cardinality, double raw, int zeroRegisters, int registers, Correction correction)
{
    /**
     * Which branch of the standard estimator applied.
     */
    public enum Correction
    {
        /** E itself (intermediate range). */
        NONE,
        /** Small range: E ≤ 2.5 m and V > 0, so linear counting m · ln(m / V). */
        LINEAR_COUNTING,
        /** Large range: E > 2^L / 30, so −2^L · ln(1 − E / 2^L) for an L-bit hash. */
        LARGE_RANGE
    }

    /**
     * @return the relative standard error 1.04 / √m.
     */
    public double standardError()
    {
        return 1.04 / Math.sqrt(registers);
    }
}
