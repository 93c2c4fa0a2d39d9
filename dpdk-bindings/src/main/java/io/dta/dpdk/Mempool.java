package io.dta.dpdk;

import io.dta.dpdk.ffi.DpdkLayout;
import io.dta.dpdk.ffi.dpdk_h;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A pool of packet mbufs ({@code rte_pktmbuf_pool_create}).
 * <p>
 * Sizing with {@code --no-huge}: one mbuf with the default 2176-byte data room takes about 2.4 KB, so
 * {@code -m 256} holds about 32 K mbufs. A pool of {@code 2^k - 1} mbufs uses its ring best.
 */
public final class Mempool implements AutoCloseable
{
    /** Default data room: 2048 bytes of data after the 128-byte headroom. */
    public static final int DEFAULT_DATA_ROOM = DpdkLayout.RTE_MBUF_DEFAULT_BUF_SIZE;

    /**
     * @param frameLength the longest frame an mbuf of the pool must hold in one segment.
     * @return the data room for it: the headroom plus the frame, at least {@link #DEFAULT_DATA_ROOM}.
     */
    public static int dataRoomFor(final int frameLength)
    {
        return Math.max(DEFAULT_DATA_ROOM, DpdkLayout.RTE_PKTMBUF_HEADROOM + frameLength);
    }

    private static final int EEXIST = 17;
    private static final int EINVAL = 22;

    /** {@code RTE_MEMPOOL_CACHE_MAX_SIZE} (rte_config.h): the largest per-lcore cache a pool may have. */
    public static final int MAX_CACHE_SIZE = 512;

    /**
     * The per-lcore cache a pool of {@code size} mbufs can have, at most {@code cacheSize}. DPDK refuses a pool
     * ({@code EINVAL}) whose cache exceeds {@value #MAX_CACHE_SIZE} or whose cache flush threshold, 1.5 times the
     * cache ({@code CALC_CACHE_FLUSHTHRESH}), exceeds the pool: a 256-mbuf cache needs a pool of 384. A small pool
     * gets a smaller cache (none below 2 mbufs): caching is a speed-up, never what makes a pool work.
     *
     * @param size      mbufs in the pool.
     * @param cacheSize the cache wanted.
     * @return {@code min(cacheSize, 512, floor(2 x size / 3))}, never negative.
     */
    public static int cacheSizeFor(final int size, final int cacheSize)
    {
        final int fits = (int)(2L * Math.max(0, size) / 3);
        return Math.max(0, Math.min(Math.min(cacheSize, MAX_CACHE_SIZE), fits));
    }

    private final String name;
    private final MemorySegment pool;
    private boolean closed;

    private Mempool(final String name, final MemorySegment pool)
    {
        this.name = name;
        this.pool = pool;
    }

    /**
     * Creates a pool on the caller's NUMA socket. Needs a running {@link Eal}.
     *
     * @param name          unique name (at most 25 characters).
     * @param size          number of mbufs.
     * @param cacheSize     per-lcore cache wanted (256 is a good default for a data plane); reduced to what the
     *                      pool's size allows ({@link #cacheSizeFor(int, int)}), so any size of 1 or more works.
     * @param dataRoomSize  bytes per mbuf for headroom and data, e.g. {@link #DEFAULT_DATA_ROOM}.
     * @return the pool.
     * @throws DpdkException when DPDK cannot create it (too little memory, duplicate name, ...).
     */
    public static Mempool create(final String name, final int size, final int cacheSize, final int dataRoomSize)
    {
        if (null == Eal.current())
        {
            throw new IllegalStateException("start the EAL (Eal.init) before creating a mempool");
        }
        try (Arena arena = Arena.ofConfined())
        {
            final MemorySegment pool = dpdk_h.rte_pktmbuf_pool_create(arena.allocateFrom(name), size,
                cacheSizeFor(size, cacheSize), (short)0, (short)dataRoomSize, DpdkLayout.SOCKET_ID_ANY);
            if (MemorySegment.NULL.equals(pool))
            {
                final int errno = dpdk_h.dta_errno();
                // No memory hint where memory is not what failed: EINVAL (a bad size) or EEXIST is no matter of -m.
                throw new DpdkException("cannot create mempool " + name + " of " + size + " mbufs: " +
                    Eal.strerror(errno) + (EINVAL != errno && EEXIST != errno ?
                    " (with --no-huge, -m must be at least about 2 x 2.4 KB per mbuf + 64 MB)" : ""), errno);
            }
            return new Mempool(name, pool);
        }
    }

    /**
     * @return the pool's name.
     */
    public String name()
    {
        return name;
    }

    /**
     * @return the {@code struct rte_mempool *}.
     */
    public MemorySegment segment()
    {
        return pool;
    }

    /**
     * Takes {@code count} mbufs, reset (empty, default headroom), into {@code mbufs[0..count)}: all or none.
     *
     * @param mbufs where to put their addresses.
     * @param count how many.
     * @return true when all were taken, false when the pool had fewer (none were taken).
     */
    public boolean allocBulk(final MbufArray mbufs, final int count)
    {
        return 0 == dpdk_h.dta_pktmbuf_alloc_bulk(pool, mbufs.segment(), count);
    }

    /**
     * @return one reset mbuf's address, or 0 when the pool is empty.
     */
    public long alloc()
    {
        return dpdk_h.dta_pktmbuf_alloc(pool);
    }

    /**
     * Returns one mbuf (and its chained segments) to its pool.
     *
     * @param mbuf the mbuf's address; 0 is ignored.
     */
    public static void free(final long mbuf)
    {
        if (0 != mbuf)
        {
            dpdk_h.dta_pktmbuf_free(mbuf);
        }
    }

    /**
     * Returns {@code mbufs[0..count)} to their pools.
     *
     * @param mbufs the mbufs.
     * @param count how many.
     */
    public static void freeBulk(final MbufArray mbufs, final int count)
    {
        if (count > 0)
        {
            dpdk_h.rte_pktmbuf_free_bulk(mbufs.segment(), count);
        }
    }

    /**
     * @return mbufs in the pool now (not exact while other lcores cache some).
     */
    public int availableCount()
    {
        return dpdk_h.rte_mempool_avail_count(pool);
    }

    /**
     * @return mbufs taken from the pool now.
     */
    public int inUseCount()
    {
        return dpdk_h.rte_mempool_in_use_count(pool);
    }

    /**
     * Frees the pool; no mbuf of it may be in use.
     */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            dpdk_h.rte_mempool_free(pool);
        }
    }
}
