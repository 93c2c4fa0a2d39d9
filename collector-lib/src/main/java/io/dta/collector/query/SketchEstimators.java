package io.dta.collector.query;

import io.dta.codec.KeyHash;
import io.dta.collector.layout.SketchLayout;

import java.util.Arrays;

/**
 * Point estimates over a merged sketch held as raw 32-bit cells, column-major like collector memory
 * ({@code cells[c * rows + r]}), with the hashes of {@link SketchLayout}.
 * <ul>
 *     <li>Count-Min: the minimum over rows of the key's counters (unsigned): collisions only add, so the smallest
 *     is the tightest upper bound; it never undercounts.</li>
 *     <li>Count sketch: the median over rows of the sign-corrected counters {@code sign_r(key) · cell}; with an
 *     even row count, the mean of the two middle values (so the result may end in .5).</li>
 *     <li>HyperLogLog: the standard estimator with alpha_m, small-range linear counting and the large-range
 *     correction for an L-bit hash; {@link #HASH_BITS} = 64 here.</li>
 * </ul>
 */
public final class SketchEstimators
{
    /**
     * Width of the HyperLogLog hash this project uses (two CRC32 halves). The large-range correction of the
     * standard estimator compensates for hash collisions once E approaches 2^L; with L = 64 it only applies above
     * 2^64 / 30, far beyond the 2^32 distinct u32 keys that exist, so in practice it never triggers (and the
     * 64-bit hash of distinct u32 keys never collides: each CRC32 half is a bijection of the 4-byte key).
     */
    public static final int HASH_BITS = 64;

    private SketchEstimators()
    {
    }

    /**
     * Count-Min estimate of a key.
     *
     * @param cells   the cells (raw words).
     * @param rows    rows.
     * @param columns columns, a power of two.
     * @param key     the key (u32).
     * @param hash    a key hash (not thread-safe).
     * @return the minimum over rows of the key's counters, unsigned.
     */
    public static long countMin(final int[] cells, final int rows, final int columns, final long key,
        final KeyHash hash)
    {
        long min = Long.MAX_VALUE;
        for (int r = 0; r < rows; r++)
        {
            final long v = cells[SketchLayout.column(hash, key, r, columns) * rows + r] & 0xFFFF_FFFFL;
            min = Math.min(min, v);
        }
        return min;
    }

    /**
     * Count sketch estimate of a key.
     *
     * @param cells   the cells (two's-complement signed words).
     * @param rows    rows.
     * @param columns columns, a power of two.
     * @param key     the key (u32).
     * @param hash    a key hash.
     * @return the median over rows of {@code sign_r(key) · cell(r, column_r(key))}; for an even row count the mean
     * of the two middle values.
     */
    public static double countSketch(final int[] cells, final int rows, final int columns, final long key,
        final KeyHash hash)
    {
        return countSketch(cells, rows, columns, key, hash, new long[rows]);
    }

    /**
     * Count sketch estimate of a key, allocation-free.
     *
     * @param cells   the cells (two's-complement signed words).
     * @param rows    rows.
     * @param columns columns, a power of two.
     * @param key     the key (u32).
     * @param hash    a key hash.
     * @param scratch at least {@code rows} long, overwritten.
     * @return as {@link #countSketch(int[], int, int, long, KeyHash)}.
     */
    public static double countSketch(final int[] cells, final int rows, final int columns, final long key,
        final KeyHash hash, final long[] scratch)
    {
        for (int r = 0; r < rows; r++)
        {
            scratch[r] = (long)SketchLayout.sign(hash, key, r) * cells[SketchLayout.column(hash, key, r, columns) *
                rows + r];
        }
        return median(scratch, rows);
    }

    /**
     * @param values values (sorted in place).
     * @return the middle value, or the mean of the two middle values for an even count.
     */
    public static double median(final long[] values)
    {
        return median(values, values.length);
    }

    /**
     * @param values values; the first {@code n} are sorted in place.
     * @param n      how many, ≥ 1.
     * @return the middle value of the first {@code n}, or the mean of the two middle values for an even count.
     */
    public static double median(final long[] values, final int n)
    {
        Arrays.sort(values, 0, n);
        return 1 == (n & 1) ? values[n / 2] : (values[n / 2 - 1] + (double)values[n / 2]) / 2.0;
    }

    /**
     * alpha_m of the HyperLogLog estimator: 0.673, 0.697, 0.709 for m = 16, 32, 64, else 0.7213 / (1 + 1.079 / m).
     * Flajolet et al. define no constant below m = 16; we use 0.673 there too (such tiny sketches have errors far
     * above 1.04/√m anyway).
     *
     * @param m registers.
     * @return alpha_m.
     */
    public static double alpha(final int m)
    {
        if (m <= 16)
        {
            return 0.673;
        }
        if (m == 32)
        {
            return 0.697;
        }
        if (m == 64)
        {
            return 0.709;
        }
        return 0.7213 / (1.0 + 1.079 / m);
    }

    /**
     * HyperLogLog cardinality with this project's 64-bit hash.
     *
     * @param registers the registers (unsigned words).
     * @return the estimate.
     */
    public static HyperLogLogEstimate hyperLogLog(final int[] registers)
    {
        return hyperLogLog(registers, HASH_BITS);
    }

    /**
     * The standard HyperLogLog estimator (Flajolet et al. 2007, Fig. 3) for an L-bit hash: E = alpha_m · m² /
     * Σ 2^(−M[j]); if E ≤ 2.5 m and some register is 0, linear counting m · ln(m / V); else if E > 2^L / 30,
     * −2^L · ln(1 − E / 2^L) (saturating at 2^L when E ≥ 2^L); else E. The paper's L is 32.
     *
     * @param registers the registers (unsigned words).
     * @param hashBits  L, 32 (the paper's) or 64 (ours).
     * @return the estimate.
     */
    public static HyperLogLogEstimate hyperLogLog(final int[] registers, final int hashBits)
    {
        final int m = registers.length;
        if (m < 1 || hashBits < 1 || hashBits > 64)
        {
            throw new IllegalArgumentException("need registers and 1..64 hash bits: " + m + ", " + hashBits);
        }
        double sum = 0.0;
        int zeros = 0;
        for (final int register : registers)
        {
            final long rank = register & 0xFFFF_FFFFL;
            if (0 == rank)
            {
                zeros++;
            }
            sum += Math.scalb(1.0, (int)-Math.min(rank, 2000));
        }
        final double raw = alpha(m) * m * (double)m / sum;
        if (raw <= 2.5 * m && zeros > 0)
        {
            return new HyperLogLogEstimate(m * Math.log((double)m / zeros), raw, zeros, m,
                HyperLogLogEstimate.Correction.LINEAR_COUNTING);
        }
        final double space = Math.scalb(1.0, hashBits);
        if (raw > space / 30.0)
        {
            final double corrected = raw >= space ? space : -space * Math.log1p(-raw / space);
            return new HyperLogLogEstimate(corrected, raw, zeros, m, HyperLogLogEstimate.Correction.LARGE_RANGE);
        }
        return new HyperLogLogEstimate(raw, raw, zeros, m, HyperLogLogEstimate.Correction.NONE);
    }
}
