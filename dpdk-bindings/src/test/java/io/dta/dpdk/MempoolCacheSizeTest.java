package io.dta.dpdk;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-lcore cache of a pool: DPDK refuses ({@code EINVAL}) a cache above {@code RTE_MEMPOOL_CACHE_MAX_SIZE} or
 * one whose flush threshold ({@code (unsigned)(cache x 1.5)}) exceeds the pool, which made pools of 64..383 mbufs fail
 * with the 256-mbuf cache the data planes ask for.
 */
class MempoolCacheSizeTest
{
    @Test
    void shouldKeepTheWantedCacheWhenThePoolAllowsIt()
    {
        assertEquals(256, Mempool.cacheSizeFor(384, 256));
        assertEquals(256, Mempool.cacheSizeFor(16383, 256));
        assertEquals(0, Mempool.cacheSizeFor(16383, 0));
        assertEquals(Mempool.MAX_CACHE_SIZE, Mempool.cacheSizeFor(1 << 20, 4096));
    }

    @Test
    void shouldShrinkTheCacheOfASmallPool()
    {
        assertEquals(255, Mempool.cacheSizeFor(383, 256));
        assertEquals(42, Mempool.cacheSizeFor(64, 256));
        assertEquals(1, Mempool.cacheSizeFor(2, 256));
        assertEquals(0, Mempool.cacheSizeFor(1, 256));
        assertEquals(0, Mempool.cacheSizeFor(0, 256));
    }

    @Test
    void shouldAlwaysGiveACacheDpdkAcceptsAndTheLargestSuchUpToTheWantedOne()
    {
        final long seed = System.nanoTime();
        final SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < 20_000; i++)
        {
            final int size = random.nextInt(1, 1 << 17);
            final int wanted = random.nextInt(0, 2048);
            final int cache = Mempool.cacheSizeFor(size, wanted);
            final String why = "seed " + seed + ": size " + size + ", wanted " + wanted + ", cache " + cache;
            assertTrue(cache >= 0 && cache <= wanted && cache <= Mempool.MAX_CACHE_SIZE, why);
            assertTrue(flushThreshold(cache) <= size, why);
            // Within one of the largest cache DPDK accepts (floor(2n/3) keeps clear of the float rounding).
            final int next = cache + 2;
            assertTrue(next > wanted || next > Mempool.MAX_CACHE_SIZE || flushThreshold(next) > size, why);
        }
    }

    /** {@code CALC_CACHE_FLUSHTHRESH(c)}: {@code (typeof(c))(c * 1.5)}. */
    private static long flushThreshold(final int cache)
    {
        return (long)(cache * 1.5);
    }
}
