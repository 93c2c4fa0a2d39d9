package io.dta.dpdk.ffi;

import io.dta.dpdk.DpdkLibrary;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

/**
 * FFM bindings to the DPDK 22.11 functions this project uses (EAL, mempool, mbuf, ethdev, ring) and to the
 * {@code dta_shim} wrappers of DPDK's {@code static inline} fast path.
 * <p>
 * Hand-written in the style and naming of jextract's output, so that real jextract output for a header that
 * includes {@code rte_eal.h}, {@code rte_ethdev.h}, {@code rte_mbuf.h}, {@code rte_mempool.h}, {@code rte_ring.h}
 * and {@code dta_shim.h} could replace this class: one nested holder per function with its
 * {@code FunctionDescriptor}, address and {@code MethodHandle} (so a symbol is looked up on first use only), and
 * the accessors {@code name$descriptor()}, {@code name$handle()}, {@code name$address()} and {@code name(...)}.
 * It is <b>not</b> jextract-generated. One departure: the hot shim functions are linked with
 * {@code Linker.Option.critical(false)}, which skips the thread-state transition (about 1 ns per call).
 * Struct sizes and offsets come from {@link DpdkLayout}, generated at build time by a C probe.
 * <p>
 * Loading this class loads {@code libdta_shim.so} (and through it the DPDK libraries); when that is impossible
 * {@link DpdkLibrary#lookup()} throws a {@link io.dta.dpdk.DpdkUnavailableException} that says what to install.
 * Callers that want a clean error check {@link DpdkLibrary#isAvailable()} first.
 */
@SuppressWarnings({ "checkstyle:MethodName", "checkstyle:TypeName" })
public final class dpdk_h extends dpdk_h_1
{
    /** C {@code char}. */
    public static final ValueLayout.OfByte C_CHAR = ValueLayout.JAVA_BYTE;
    /** C {@code short} / {@code uint16_t}. */
    public static final ValueLayout.OfShort C_SHORT = ValueLayout.JAVA_SHORT;
    /** C {@code int} / {@code unsigned int}. */
    public static final ValueLayout.OfInt C_INT = ValueLayout.JAVA_INT;
    /** C {@code long long} / {@code uint64_t} / {@code uintptr_t}. */
    public static final ValueLayout.OfLong C_LONG_LONG = ValueLayout.JAVA_LONG;
    /** C pointer. */
    public static final AddressLayout C_POINTER = ValueLayout.ADDRESS;

    private static final Linker.Option CRITICAL = Linker.Option.critical(false);
    static final SymbolLookup SYMBOL_LOOKUP = DpdkLibrary.lookup();

    private dpdk_h()
    {
    }

    static MemorySegment findOrThrow(final String symbol)
    {
        return SYMBOL_LOOKUP.find(symbol)
            .orElseThrow(() -> new UnsatisfiedLinkError("unresolved symbol: " + symbol));
    }

    private static final class rte_eal_init
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_INT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eal_init");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eal_init}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eal_init$descriptor()
    {
        return rte_eal_init.DESC;
    }

    /**
     * Downcall handle for {@code rte_eal_init}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eal_init$handle()
    {
        return rte_eal_init.HANDLE;
    }

    /**
     * Address of {@code rte_eal_init}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eal_init$address()
    {
        return rte_eal_init.ADDR;
    }

    /**
     * {@code int rte_eal_init(int argc, char **argv)}.
     *
     * @param argc C parameter {@code argc}.
     * @param argv C parameter {@code argv}.
     * @return the C return value.
     */
    public static int rte_eal_init(final int argc, final MemorySegment argv)
    {
        final var mh$ = rte_eal_init.HANDLE;
        try
        {
            return (int)mh$.invokeExact(argc, argv);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eal_cleanup
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eal_cleanup");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eal_cleanup}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eal_cleanup$descriptor()
    {
        return rte_eal_cleanup.DESC;
    }

    /**
     * Downcall handle for {@code rte_eal_cleanup}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eal_cleanup$handle()
    {
        return rte_eal_cleanup.HANDLE;
    }

    /**
     * Address of {@code rte_eal_cleanup}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eal_cleanup$address()
    {
        return rte_eal_cleanup.ADDR;
    }

    /**
     * {@code int rte_eal_cleanup(void)}.
     *
     * @return the C return value.
     */
    public static int rte_eal_cleanup()
    {
        final var mh$ = rte_eal_cleanup.HANDLE;
        try
        {
            return (int)mh$.invokeExact();
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eal_get_runtime_dir
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eal_get_runtime_dir");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eal_get_runtime_dir}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eal_get_runtime_dir$descriptor()
    {
        return rte_eal_get_runtime_dir.DESC;
    }

    /**
     * Downcall handle for {@code rte_eal_get_runtime_dir}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eal_get_runtime_dir$handle()
    {
        return rte_eal_get_runtime_dir.HANDLE;
    }

    /**
     * Address of {@code rte_eal_get_runtime_dir}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eal_get_runtime_dir$address()
    {
        return rte_eal_get_runtime_dir.ADDR;
    }

    /**
     * {@code const char *rte_eal_get_runtime_dir(void)}.
     *
     * @return the C return value.
     */
    public static MemorySegment rte_eal_get_runtime_dir()
    {
        final var mh$ = rte_eal_get_runtime_dir.HANDLE;
        try
        {
            return (MemorySegment)mh$.invokeExact();
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_strerror
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_POINTER, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_strerror");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_strerror}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_strerror$descriptor()
    {
        return rte_strerror.DESC;
    }

    /**
     * Downcall handle for {@code rte_strerror}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_strerror$handle()
    {
        return rte_strerror.HANDLE;
    }

    /**
     * Address of {@code rte_strerror}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_strerror$address()
    {
        return rte_strerror.ADDR;
    }

    /**
     * {@code const char *rte_strerror(int errnum)}.
     *
     * @param errnum C parameter {@code errnum}.
     * @return the C return value.
     */
    public static MemorySegment rte_strerror(final int errnum)
    {
        final var mh$ = rte_strerror.HANDLE;
        try
        {
            return (MemorySegment)mh$.invokeExact(errnum);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_thread_register
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_thread_register");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_thread_register}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_thread_register$descriptor()
    {
        return rte_thread_register.DESC;
    }

    /**
     * Downcall handle for {@code rte_thread_register}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_thread_register$handle()
    {
        return rte_thread_register.HANDLE;
    }

    /**
     * Address of {@code rte_thread_register}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_thread_register$address()
    {
        return rte_thread_register.ADDR;
    }

    /**
     * {@code int rte_thread_register(void)}.
     *
     * @return the C return value.
     */
    public static int rte_thread_register()
    {
        final var mh$ = rte_thread_register.HANDLE;
        try
        {
            return (int)mh$.invokeExact();
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_socket_id
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_socket_id");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_socket_id}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_socket_id$descriptor()
    {
        return rte_socket_id.DESC;
    }

    /**
     * Downcall handle for {@code rte_socket_id}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_socket_id$handle()
    {
        return rte_socket_id.HANDLE;
    }

    /**
     * Address of {@code rte_socket_id}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_socket_id$address()
    {
        return rte_socket_id.ADDR;
    }

    /**
     * {@code unsigned int rte_socket_id(void)}.
     *
     * @return the C return value.
     */
    public static int rte_socket_id()
    {
        final var mh$ = rte_socket_id.HANDLE;
        try
        {
            return (int)mh$.invokeExact();
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_lcore_count
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_lcore_count");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_lcore_count}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_lcore_count$descriptor()
    {
        return rte_lcore_count.DESC;
    }

    /**
     * Downcall handle for {@code rte_lcore_count}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_lcore_count$handle()
    {
        return rte_lcore_count.HANDLE;
    }

    /**
     * Address of {@code rte_lcore_count}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_lcore_count$address()
    {
        return rte_lcore_count.ADDR;
    }

    /**
     * {@code unsigned int rte_lcore_count(void)}.
     *
     * @return the C return value.
     */
    public static int rte_lcore_count()
    {
        final var mh$ = rte_lcore_count.HANDLE;
        try
        {
            return (int)mh$.invokeExact();
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_pktmbuf_pool_create
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_POINTER, dpdk_h.C_POINTER, dpdk_h.C_INT, dpdk_h.C_INT, dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_pktmbuf_pool_create");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_pktmbuf_pool_create}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_pktmbuf_pool_create$descriptor()
    {
        return rte_pktmbuf_pool_create.DESC;
    }

    /**
     * Downcall handle for {@code rte_pktmbuf_pool_create}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_pktmbuf_pool_create$handle()
    {
        return rte_pktmbuf_pool_create.HANDLE;
    }

    /**
     * Address of {@code rte_pktmbuf_pool_create}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_pktmbuf_pool_create$address()
    {
        return rte_pktmbuf_pool_create.ADDR;
    }

    /**
     * {@code struct rte_mempool *rte_pktmbuf_pool_create(const char *name, unsigned int n, unsigned int cache_size, uint16_t priv_size, uint16_t data_room_size, int socket_id)}.
     *
     * @param name C parameter {@code name}.
     * @param n C parameter {@code n}.
     * @param cache_size C parameter {@code cache_size}.
     * @param priv_size C parameter {@code priv_size}.
     * @param data_room_size C parameter {@code data_room_size}.
     * @param socket_id C parameter {@code socket_id}.
     * @return the C return value.
     */
    public static MemorySegment rte_pktmbuf_pool_create(final MemorySegment name, final int n, final int cache_size, final short priv_size, final short data_room_size, final int socket_id)
    {
        final var mh$ = rte_pktmbuf_pool_create.HANDLE;
        try
        {
            return (MemorySegment)mh$.invokeExact(name, n, cache_size, priv_size, data_room_size, socket_id);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_mempool_free
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_mempool_free");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_mempool_free}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_mempool_free$descriptor()
    {
        return rte_mempool_free.DESC;
    }

    /**
     * Downcall handle for {@code rte_mempool_free}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_mempool_free$handle()
    {
        return rte_mempool_free.HANDLE;
    }

    /**
     * Address of {@code rte_mempool_free}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_mempool_free$address()
    {
        return rte_mempool_free.ADDR;
    }

    /**
     * {@code void rte_mempool_free(struct rte_mempool *mp)}.
     *
     * @param mp C parameter {@code mp}.
     */
    public static void rte_mempool_free(final MemorySegment mp)
    {
        final var mh$ = rte_mempool_free.HANDLE;
        try
        {
            mh$.invokeExact(mp);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_mempool_avail_count
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_mempool_avail_count");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_mempool_avail_count}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_mempool_avail_count$descriptor()
    {
        return rte_mempool_avail_count.DESC;
    }

    /**
     * Downcall handle for {@code rte_mempool_avail_count}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_mempool_avail_count$handle()
    {
        return rte_mempool_avail_count.HANDLE;
    }

    /**
     * Address of {@code rte_mempool_avail_count}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_mempool_avail_count$address()
    {
        return rte_mempool_avail_count.ADDR;
    }

    /**
     * {@code unsigned int rte_mempool_avail_count(const struct rte_mempool *mp)}.
     *
     * @param mp C parameter {@code mp}.
     * @return the C return value.
     */
    public static int rte_mempool_avail_count(final MemorySegment mp)
    {
        final var mh$ = rte_mempool_avail_count.HANDLE;
        try
        {
            return (int)mh$.invokeExact(mp);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_mempool_in_use_count
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_mempool_in_use_count");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_mempool_in_use_count}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_mempool_in_use_count$descriptor()
    {
        return rte_mempool_in_use_count.DESC;
    }

    /**
     * Downcall handle for {@code rte_mempool_in_use_count}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_mempool_in_use_count$handle()
    {
        return rte_mempool_in_use_count.HANDLE;
    }

    /**
     * Address of {@code rte_mempool_in_use_count}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_mempool_in_use_count$address()
    {
        return rte_mempool_in_use_count.ADDR;
    }

    /**
     * {@code unsigned int rte_mempool_in_use_count(const struct rte_mempool *mp)}.
     *
     * @param mp C parameter {@code mp}.
     * @return the C return value.
     */
    public static int rte_mempool_in_use_count(final MemorySegment mp)
    {
        final var mh$ = rte_mempool_in_use_count.HANDLE;
        try
        {
            return (int)mh$.invokeExact(mp);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_pktmbuf_free_bulk
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(dpdk_h.C_POINTER, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_pktmbuf_free_bulk");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code rte_pktmbuf_free_bulk}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_pktmbuf_free_bulk$descriptor()
    {
        return rte_pktmbuf_free_bulk.DESC;
    }

    /**
     * Downcall handle for {@code rte_pktmbuf_free_bulk}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_pktmbuf_free_bulk$handle()
    {
        return rte_pktmbuf_free_bulk.HANDLE;
    }

    /**
     * Address of {@code rte_pktmbuf_free_bulk}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_pktmbuf_free_bulk$address()
    {
        return rte_pktmbuf_free_bulk.ADDR;
    }

    /**
     * {@code void rte_pktmbuf_free_bulk(struct rte_mbuf **mbufs, unsigned int count)} (linked critical: no heap access, no thread-state transition).
     *
     * @param mbufs C parameter {@code mbufs}.
     * @param count C parameter {@code count}.
     */
    public static void rte_pktmbuf_free_bulk(final MemorySegment mbufs, final int count)
    {
        final var mh$ = rte_pktmbuf_free_bulk.HANDLE;
        try
        {
            mh$.invokeExact(mbufs, count);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_mbuf_dyn_rx_timestamp_register
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_mbuf_dyn_rx_timestamp_register");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_mbuf_dyn_rx_timestamp_register}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_mbuf_dyn_rx_timestamp_register$descriptor()
    {
        return rte_mbuf_dyn_rx_timestamp_register.DESC;
    }

    /**
     * Downcall handle for {@code rte_mbuf_dyn_rx_timestamp_register}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_mbuf_dyn_rx_timestamp_register$handle()
    {
        return rte_mbuf_dyn_rx_timestamp_register.HANDLE;
    }

    /**
     * Address of {@code rte_mbuf_dyn_rx_timestamp_register}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_mbuf_dyn_rx_timestamp_register$address()
    {
        return rte_mbuf_dyn_rx_timestamp_register.ADDR;
    }

    /**
     * {@code int rte_mbuf_dyn_rx_timestamp_register(int *field_offset, uint64_t *rx_flag)}.
     *
     * @param field_offset C parameter {@code field_offset}.
     * @param rx_flag C parameter {@code rx_flag}.
     * @return the C return value.
     */
    public static int rte_mbuf_dyn_rx_timestamp_register(final MemorySegment field_offset, final MemorySegment rx_flag)
    {
        final var mh$ = rte_mbuf_dyn_rx_timestamp_register.HANDLE;
        try
        {
            return (int)mh$.invokeExact(field_offset, rx_flag);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_dev_count_avail
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_SHORT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_dev_count_avail");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_dev_count_avail}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_dev_count_avail$descriptor()
    {
        return rte_eth_dev_count_avail.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_dev_count_avail}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_dev_count_avail$handle()
    {
        return rte_eth_dev_count_avail.HANDLE;
    }

    /**
     * Address of {@code rte_eth_dev_count_avail}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_dev_count_avail$address()
    {
        return rte_eth_dev_count_avail.ADDR;
    }

    /**
     * {@code uint16_t rte_eth_dev_count_avail(void)}.
     *
     * @return the C return value.
     */
    public static short rte_eth_dev_count_avail()
    {
        final var mh$ = rte_eth_dev_count_avail.HANDLE;
        try
        {
            return (short)mh$.invokeExact();
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_dev_get_port_by_name
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_dev_get_port_by_name");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_dev_get_port_by_name}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_dev_get_port_by_name$descriptor()
    {
        return rte_eth_dev_get_port_by_name.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_dev_get_port_by_name}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_dev_get_port_by_name$handle()
    {
        return rte_eth_dev_get_port_by_name.HANDLE;
    }

    /**
     * Address of {@code rte_eth_dev_get_port_by_name}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_dev_get_port_by_name$address()
    {
        return rte_eth_dev_get_port_by_name.ADDR;
    }

    /**
     * {@code int rte_eth_dev_get_port_by_name(const char *name, uint16_t *port_id)}.
     *
     * @param name C parameter {@code name}.
     * @param port_id C parameter {@code port_id}.
     * @return the C return value.
     */
    public static int rte_eth_dev_get_port_by_name(final MemorySegment name, final MemorySegment port_id)
    {
        final var mh$ = rte_eth_dev_get_port_by_name.HANDLE;
        try
        {
            return (int)mh$.invokeExact(name, port_id);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_dev_get_name_by_port
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_dev_get_name_by_port");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_dev_get_name_by_port}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_dev_get_name_by_port$descriptor()
    {
        return rte_eth_dev_get_name_by_port.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_dev_get_name_by_port}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_dev_get_name_by_port$handle()
    {
        return rte_eth_dev_get_name_by_port.HANDLE;
    }

    /**
     * Address of {@code rte_eth_dev_get_name_by_port}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_dev_get_name_by_port$address()
    {
        return rte_eth_dev_get_name_by_port.ADDR;
    }

    /**
     * {@code int rte_eth_dev_get_name_by_port(uint16_t port_id, char *name)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @param name C parameter {@code name}.
     * @return the C return value.
     */
    public static int rte_eth_dev_get_name_by_port(final short port_id, final MemorySegment name)
    {
        final var mh$ = rte_eth_dev_get_name_by_port.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id, name);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_dev_configure
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_dev_configure");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_dev_configure}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_dev_configure$descriptor()
    {
        return rte_eth_dev_configure.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_dev_configure}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_dev_configure$handle()
    {
        return rte_eth_dev_configure.HANDLE;
    }

    /**
     * Address of {@code rte_eth_dev_configure}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_dev_configure$address()
    {
        return rte_eth_dev_configure.ADDR;
    }

    /**
     * {@code int rte_eth_dev_configure(uint16_t port_id, uint16_t nb_rx_queue, uint16_t nb_tx_queue, const struct rte_eth_conf *eth_conf)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @param nb_rx_queue C parameter {@code nb_rx_queue}.
     * @param nb_tx_queue C parameter {@code nb_tx_queue}.
     * @param eth_conf C parameter {@code eth_conf}.
     * @return the C return value.
     */
    public static int rte_eth_dev_configure(final short port_id, final short nb_rx_queue, final short nb_tx_queue, final MemorySegment eth_conf)
    {
        final var mh$ = rte_eth_dev_configure.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id, nb_rx_queue, nb_tx_queue, eth_conf);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_dev_info_get
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_dev_info_get");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_dev_info_get}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_dev_info_get$descriptor()
    {
        return rte_eth_dev_info_get.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_dev_info_get}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_dev_info_get$handle()
    {
        return rte_eth_dev_info_get.HANDLE;
    }

    /**
     * Address of {@code rte_eth_dev_info_get}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_dev_info_get$address()
    {
        return rte_eth_dev_info_get.ADDR;
    }

    /**
     * {@code int rte_eth_dev_info_get(uint16_t port_id, struct rte_eth_dev_info *dev_info)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @param dev_info C parameter {@code dev_info}.
     * @return the C return value.
     */
    public static int rte_eth_dev_info_get(final short port_id, final MemorySegment dev_info)
    {
        final var mh$ = rte_eth_dev_info_get.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id, dev_info);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_rx_queue_setup
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_INT, dpdk_h.C_POINTER, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_rx_queue_setup");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_rx_queue_setup}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_rx_queue_setup$descriptor()
    {
        return rte_eth_rx_queue_setup.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_rx_queue_setup}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_rx_queue_setup$handle()
    {
        return rte_eth_rx_queue_setup.HANDLE;
    }

    /**
     * Address of {@code rte_eth_rx_queue_setup}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_rx_queue_setup$address()
    {
        return rte_eth_rx_queue_setup.ADDR;
    }

    /**
     * {@code int rte_eth_rx_queue_setup(uint16_t port_id, uint16_t rx_queue_id, uint16_t nb_rx_desc, unsigned int socket_id, const struct rte_eth_rxconf *rx_conf, struct rte_mempool *mb_pool)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @param rx_queue_id C parameter {@code rx_queue_id}.
     * @param nb_rx_desc C parameter {@code nb_rx_desc}.
     * @param socket_id C parameter {@code socket_id}.
     * @param rx_conf C parameter {@code rx_conf}.
     * @param mb_pool C parameter {@code mb_pool}.
     * @return the C return value.
     */
    public static int rte_eth_rx_queue_setup(final short port_id, final short rx_queue_id, final short nb_rx_desc, final int socket_id, final MemorySegment rx_conf, final MemorySegment mb_pool)
    {
        final var mh$ = rte_eth_rx_queue_setup.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id, rx_queue_id, nb_rx_desc, socket_id, rx_conf, mb_pool);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_tx_queue_setup
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_INT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_tx_queue_setup");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_tx_queue_setup}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_tx_queue_setup$descriptor()
    {
        return rte_eth_tx_queue_setup.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_tx_queue_setup}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_tx_queue_setup$handle()
    {
        return rte_eth_tx_queue_setup.HANDLE;
    }

    /**
     * Address of {@code rte_eth_tx_queue_setup}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_tx_queue_setup$address()
    {
        return rte_eth_tx_queue_setup.ADDR;
    }

    /**
     * {@code int rte_eth_tx_queue_setup(uint16_t port_id, uint16_t tx_queue_id, uint16_t nb_tx_desc, unsigned int socket_id, const struct rte_eth_txconf *tx_conf)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @param tx_queue_id C parameter {@code tx_queue_id}.
     * @param nb_tx_desc C parameter {@code nb_tx_desc}.
     * @param socket_id C parameter {@code socket_id}.
     * @param tx_conf C parameter {@code tx_conf}.
     * @return the C return value.
     */
    public static int rte_eth_tx_queue_setup(final short port_id, final short tx_queue_id, final short nb_tx_desc, final int socket_id, final MemorySegment tx_conf)
    {
        final var mh$ = rte_eth_tx_queue_setup.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id, tx_queue_id, nb_tx_desc, socket_id, tx_conf);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_dev_start
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_dev_start");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_dev_start}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_dev_start$descriptor()
    {
        return rte_eth_dev_start.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_dev_start}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_dev_start$handle()
    {
        return rte_eth_dev_start.HANDLE;
    }

    /**
     * Address of {@code rte_eth_dev_start}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_dev_start$address()
    {
        return rte_eth_dev_start.ADDR;
    }

    /**
     * {@code int rte_eth_dev_start(uint16_t port_id)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @return the C return value.
     */
    public static int rte_eth_dev_start(final short port_id)
    {
        final var mh$ = rte_eth_dev_start.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_dev_stop
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_dev_stop");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_dev_stop}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_dev_stop$descriptor()
    {
        return rte_eth_dev_stop.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_dev_stop}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_dev_stop$handle()
    {
        return rte_eth_dev_stop.HANDLE;
    }

    /**
     * Address of {@code rte_eth_dev_stop}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_dev_stop$address()
    {
        return rte_eth_dev_stop.ADDR;
    }

    /**
     * {@code int rte_eth_dev_stop(uint16_t port_id)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @return the C return value.
     */
    public static int rte_eth_dev_stop(final short port_id)
    {
        final var mh$ = rte_eth_dev_stop.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_dev_close
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_dev_close");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_dev_close}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_dev_close$descriptor()
    {
        return rte_eth_dev_close.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_dev_close}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_dev_close$handle()
    {
        return rte_eth_dev_close.HANDLE;
    }

    /**
     * Address of {@code rte_eth_dev_close}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_dev_close$address()
    {
        return rte_eth_dev_close.ADDR;
    }

    /**
     * {@code int rte_eth_dev_close(uint16_t port_id)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @return the C return value.
     */
    public static int rte_eth_dev_close(final short port_id)
    {
        final var mh$ = rte_eth_dev_close.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_dev_socket_id
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_dev_socket_id");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_dev_socket_id}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_dev_socket_id$descriptor()
    {
        return rte_eth_dev_socket_id.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_dev_socket_id}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_dev_socket_id$handle()
    {
        return rte_eth_dev_socket_id.HANDLE;
    }

    /**
     * Address of {@code rte_eth_dev_socket_id}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_dev_socket_id$address()
    {
        return rte_eth_dev_socket_id.ADDR;
    }

    /**
     * {@code int rte_eth_dev_socket_id(uint16_t port_id)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @return the C return value.
     */
    public static int rte_eth_dev_socket_id(final short port_id)
    {
        final var mh$ = rte_eth_dev_socket_id.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_promiscuous_enable
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_promiscuous_enable");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_promiscuous_enable}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_promiscuous_enable$descriptor()
    {
        return rte_eth_promiscuous_enable.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_promiscuous_enable}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_promiscuous_enable$handle()
    {
        return rte_eth_promiscuous_enable.HANDLE;
    }

    /**
     * Address of {@code rte_eth_promiscuous_enable}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_promiscuous_enable$address()
    {
        return rte_eth_promiscuous_enable.ADDR;
    }

    /**
     * {@code int rte_eth_promiscuous_enable(uint16_t port_id)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @return the C return value.
     */
    public static int rte_eth_promiscuous_enable(final short port_id)
    {
        final var mh$ = rte_eth_promiscuous_enable.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_macaddr_get
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_macaddr_get");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_macaddr_get}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_macaddr_get$descriptor()
    {
        return rte_eth_macaddr_get.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_macaddr_get}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_macaddr_get$handle()
    {
        return rte_eth_macaddr_get.HANDLE;
    }

    /**
     * Address of {@code rte_eth_macaddr_get}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_macaddr_get$address()
    {
        return rte_eth_macaddr_get.ADDR;
    }

    /**
     * {@code int rte_eth_macaddr_get(uint16_t port_id, struct rte_ether_addr *mac_addr)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @param mac_addr C parameter {@code mac_addr}.
     * @return the C return value.
     */
    public static int rte_eth_macaddr_get(final short port_id, final MemorySegment mac_addr)
    {
        final var mh$ = rte_eth_macaddr_get.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id, mac_addr);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_dev_get_mtu
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_dev_get_mtu");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_dev_get_mtu}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_dev_get_mtu$descriptor()
    {
        return rte_eth_dev_get_mtu.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_dev_get_mtu}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_dev_get_mtu$handle()
    {
        return rte_eth_dev_get_mtu.HANDLE;
    }

    /**
     * Address of {@code rte_eth_dev_get_mtu}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_dev_get_mtu$address()
    {
        return rte_eth_dev_get_mtu.ADDR;
    }

    /**
     * {@code int rte_eth_dev_get_mtu(uint16_t port_id, uint16_t *mtu)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @param mtu C parameter {@code mtu}.
     * @return the C return value.
     */
    public static int rte_eth_dev_get_mtu(final short port_id, final MemorySegment mtu)
    {
        final var mh$ = rte_eth_dev_get_mtu.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id, mtu);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_stats_get
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_stats_get");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_stats_get}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_stats_get$descriptor()
    {
        return rte_eth_stats_get.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_stats_get}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_stats_get$handle()
    {
        return rte_eth_stats_get.HANDLE;
    }

    /**
     * Address of {@code rte_eth_stats_get}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_stats_get$address()
    {
        return rte_eth_stats_get.ADDR;
    }

    /**
     * {@code int rte_eth_stats_get(uint16_t port_id, struct rte_eth_stats *stats)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @param stats C parameter {@code stats}.
     * @return the C return value.
     */
    public static int rte_eth_stats_get(final short port_id, final MemorySegment stats)
    {
        final var mh$ = rte_eth_stats_get.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id, stats);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_stats_reset
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_stats_reset");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_stats_reset}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_stats_reset$descriptor()
    {
        return rte_eth_stats_reset.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_stats_reset}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_stats_reset$handle()
    {
        return rte_eth_stats_reset.HANDLE;
    }

    /**
     * Address of {@code rte_eth_stats_reset}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_stats_reset$address()
    {
        return rte_eth_stats_reset.ADDR;
    }

    /**
     * {@code int rte_eth_stats_reset(uint16_t port_id)}.
     *
     * @param port_id C parameter {@code port_id}.
     * @return the C return value.
     */
    public static int rte_eth_stats_reset(final short port_id)
    {
        final var mh$ = rte_eth_stats_reset.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_ring_create
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_POINTER, dpdk_h.C_POINTER, dpdk_h.C_INT, dpdk_h.C_INT, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_ring_create");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_ring_create}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_ring_create$descriptor()
    {
        return rte_ring_create.DESC;
    }

    /**
     * Downcall handle for {@code rte_ring_create}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_ring_create$handle()
    {
        return rte_ring_create.HANDLE;
    }

    /**
     * Address of {@code rte_ring_create}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_ring_create$address()
    {
        return rte_ring_create.ADDR;
    }

    /**
     * {@code struct rte_ring *rte_ring_create(const char *name, unsigned int count, int socket_id, unsigned int flags)}.
     *
     * @param name C parameter {@code name}.
     * @param count C parameter {@code count}.
     * @param socket_id C parameter {@code socket_id}.
     * @param flags C parameter {@code flags}.
     * @return the C return value.
     */
    public static MemorySegment rte_ring_create(final MemorySegment name, final int count, final int socket_id, final int flags)
    {
        final var mh$ = rte_ring_create.HANDLE;
        try
        {
            return (MemorySegment)mh$.invokeExact(name, count, socket_id, flags);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_ring_free
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_ring_free");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_ring_free}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_ring_free$descriptor()
    {
        return rte_ring_free.DESC;
    }

    /**
     * Downcall handle for {@code rte_ring_free}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_ring_free$handle()
    {
        return rte_ring_free.HANDLE;
    }

    /**
     * Address of {@code rte_ring_free}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_ring_free$address()
    {
        return rte_ring_free.ADDR;
    }

    /**
     * {@code void rte_ring_free(struct rte_ring *r)}.
     *
     * @param r C parameter {@code r}.
     */
    public static void rte_ring_free(final MemorySegment r)
    {
        final var mh$ = rte_ring_free.HANDLE;
        try
        {
            mh$.invokeExact(r);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_noop
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_noop");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_noop}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_noop$descriptor()
    {
        return dta_noop.DESC;
    }

    /**
     * Downcall handle for {@code dta_noop}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_noop$handle()
    {
        return dta_noop.HANDLE;
    }

    /**
     * Address of {@code dta_noop}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_noop$address()
    {
        return dta_noop.ADDR;
    }

    /**
     * {@code int32_t dta_noop(int32_t x) (shim)} (linked critical: no heap access, no thread-state transition).
     *
     * @param x C parameter {@code x}.
     * @return the C return value.
     */
    public static int dta_noop(final int x)
    {
        final var mh$ = dta_noop.HANDLE;
        try
        {
            return (int)mh$.invokeExact(x);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_rx_burst
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_POINTER, dpdk_h.C_SHORT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_rx_burst");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_rx_burst}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_rx_burst$descriptor()
    {
        return dta_rx_burst.DESC;
    }

    /**
     * Downcall handle for {@code dta_rx_burst}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_rx_burst$handle()
    {
        return dta_rx_burst.HANDLE;
    }

    /**
     * Address of {@code dta_rx_burst}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_rx_burst$address()
    {
        return dta_rx_burst.ADDR;
    }

    /**
     * {@code uint16_t dta_rx_burst(uint16_t port_id, uint16_t queue_id, struct rte_mbuf **rx_pkts, uint16_t nb_pkts) (shim over the inline rte_eth_rx_burst)} (linked critical: no heap access, no thread-state transition).
     *
     * @param port_id C parameter {@code port_id}.
     * @param queue_id C parameter {@code queue_id}.
     * @param rx_pkts C parameter {@code rx_pkts}.
     * @param nb_pkts C parameter {@code nb_pkts}.
     * @return the C return value.
     */
    public static short dta_rx_burst(final short port_id, final short queue_id, final MemorySegment rx_pkts, final short nb_pkts)
    {
        final var mh$ = dta_rx_burst.HANDLE;
        try
        {
            return (short)mh$.invokeExact(port_id, queue_id, rx_pkts, nb_pkts);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_rx_burst_frames
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_POINTER, dpdk_h.C_SHORT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_rx_burst_frames");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_rx_burst_frames}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_rx_burst_frames$descriptor()
    {
        return dta_rx_burst_frames.DESC;
    }

    /**
     * Downcall handle for {@code dta_rx_burst_frames}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_rx_burst_frames$handle()
    {
        return dta_rx_burst_frames.HANDLE;
    }

    /**
     * Address of {@code dta_rx_burst_frames}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_rx_burst_frames$address()
    {
        return dta_rx_burst_frames.ADDR;
    }

    /**
     * {@code uint16_t dta_rx_burst_frames(uint16_t port_id, uint16_t queue_id, struct rte_mbuf **rx_pkts, uint16_t nb_pkts, uint64_t *frames) (shim over the inline rte_eth_rx_burst: also each packet's data address and length, data prefetched)} (linked critical: no heap access, no thread-state transition).
     *
     * @param port_id C parameter {@code port_id}.
     * @param queue_id C parameter {@code queue_id}.
     * @param rx_pkts C parameter {@code rx_pkts}.
     * @param nb_pkts C parameter {@code nb_pkts}.
     * @param frames C parameter {@code frames}.
     * @return the C return value.
     */
    public static short dta_rx_burst_frames(final short port_id, final short queue_id, final MemorySegment rx_pkts, final short nb_pkts, final MemorySegment frames)
    {
        final var mh$ = dta_rx_burst_frames.HANDLE;
        try
        {
            return (short)mh$.invokeExact(port_id, queue_id, rx_pkts, nb_pkts, frames);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_tx_burst
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_POINTER, dpdk_h.C_SHORT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_tx_burst");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_tx_burst}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_tx_burst$descriptor()
    {
        return dta_tx_burst.DESC;
    }

    /**
     * Downcall handle for {@code dta_tx_burst}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_tx_burst$handle()
    {
        return dta_tx_burst.HANDLE;
    }

    /**
     * Address of {@code dta_tx_burst}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_tx_burst$address()
    {
        return dta_tx_burst.ADDR;
    }

    /**
     * {@code uint16_t dta_tx_burst(uint16_t port_id, uint16_t queue_id, struct rte_mbuf **tx_pkts, uint16_t nb_pkts) (shim over the inline rte_eth_tx_burst)} (linked critical: no heap access, no thread-state transition).
     *
     * @param port_id C parameter {@code port_id}.
     * @param queue_id C parameter {@code queue_id}.
     * @param tx_pkts C parameter {@code tx_pkts}.
     * @param nb_pkts C parameter {@code nb_pkts}.
     * @return the C return value.
     */
    public static short dta_tx_burst(final short port_id, final short queue_id, final MemorySegment tx_pkts, final short nb_pkts)
    {
        final var mh$ = dta_tx_burst.HANDLE;
        try
        {
            return (short)mh$.invokeExact(port_id, queue_id, tx_pkts, nb_pkts);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_tx_burst_or_free
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_SHORT, dpdk_h.C_POINTER, dpdk_h.C_SHORT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_tx_burst_or_free");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_tx_burst_or_free}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_tx_burst_or_free$descriptor()
    {
        return dta_tx_burst_or_free.DESC;
    }

    /**
     * Downcall handle for {@code dta_tx_burst_or_free}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_tx_burst_or_free$handle()
    {
        return dta_tx_burst_or_free.HANDLE;
    }

    /**
     * Address of {@code dta_tx_burst_or_free}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_tx_burst_or_free$address()
    {
        return dta_tx_burst_or_free.ADDR;
    }

    /**
     * {@code uint16_t dta_tx_burst_or_free(uint16_t port_id, uint16_t queue_id, struct rte_mbuf **tx_pkts, uint16_t nb_pkts) (shim: tx burst, frees what was not sent)} (linked critical: no heap access, no thread-state transition).
     *
     * @param port_id C parameter {@code port_id}.
     * @param queue_id C parameter {@code queue_id}.
     * @param tx_pkts C parameter {@code tx_pkts}.
     * @param nb_pkts C parameter {@code nb_pkts}.
     * @return the C return value.
     */
    public static short dta_tx_burst_or_free(final short port_id, final short queue_id, final MemorySegment tx_pkts, final short nb_pkts)
    {
        final var mh$ = dta_tx_burst_or_free.HANDLE;
        try
        {
            return (short)mh$.invokeExact(port_id, queue_id, tx_pkts, nb_pkts);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_pktmbuf_alloc_bulk
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER, dpdk_h.C_POINTER, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_pktmbuf_alloc_bulk");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_pktmbuf_alloc_bulk}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_pktmbuf_alloc_bulk$descriptor()
    {
        return dta_pktmbuf_alloc_bulk.DESC;
    }

    /**
     * Downcall handle for {@code dta_pktmbuf_alloc_bulk}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_pktmbuf_alloc_bulk$handle()
    {
        return dta_pktmbuf_alloc_bulk.HANDLE;
    }

    /**
     * Address of {@code dta_pktmbuf_alloc_bulk}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_pktmbuf_alloc_bulk$address()
    {
        return dta_pktmbuf_alloc_bulk.ADDR;
    }

    /**
     * {@code int dta_pktmbuf_alloc_bulk(struct rte_mempool *pool, struct rte_mbuf **mbufs, unsigned int count) (shim over the inline rte_pktmbuf_alloc_bulk)} (linked critical: no heap access, no thread-state transition).
     *
     * @param pool C parameter {@code pool}.
     * @param mbufs C parameter {@code mbufs}.
     * @param count C parameter {@code count}.
     * @return the C return value.
     */
    public static int dta_pktmbuf_alloc_bulk(final MemorySegment pool, final MemorySegment mbufs, final int count)
    {
        final var mh$ = dta_pktmbuf_alloc_bulk.HANDLE;
        try
        {
            return (int)mh$.invokeExact(pool, mbufs, count);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_pktmbuf_alloc
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_LONG_LONG, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_pktmbuf_alloc");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_pktmbuf_alloc}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_pktmbuf_alloc$descriptor()
    {
        return dta_pktmbuf_alloc.DESC;
    }

    /**
     * Downcall handle for {@code dta_pktmbuf_alloc}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_pktmbuf_alloc$handle()
    {
        return dta_pktmbuf_alloc.HANDLE;
    }

    /**
     * Address of {@code dta_pktmbuf_alloc}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_pktmbuf_alloc$address()
    {
        return dta_pktmbuf_alloc.ADDR;
    }

    /**
     * {@code uintptr_t dta_pktmbuf_alloc(struct rte_mempool *pool) (shim over the inline rte_pktmbuf_alloc)} (linked critical: no heap access, no thread-state transition).
     *
     * @param pool C parameter {@code pool}.
     * @return the C return value.
     */
    public static long dta_pktmbuf_alloc(final MemorySegment pool)
    {
        final var mh$ = dta_pktmbuf_alloc.HANDLE;
        try
        {
            return (long)mh$.invokeExact(pool);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_pktmbuf_free
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(dpdk_h.C_LONG_LONG);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_pktmbuf_free");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_pktmbuf_free}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_pktmbuf_free$descriptor()
    {
        return dta_pktmbuf_free.DESC;
    }

    /**
     * Downcall handle for {@code dta_pktmbuf_free}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_pktmbuf_free$handle()
    {
        return dta_pktmbuf_free.HANDLE;
    }

    /**
     * Address of {@code dta_pktmbuf_free}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_pktmbuf_free$address()
    {
        return dta_pktmbuf_free.ADDR;
    }

    /**
     * {@code void dta_pktmbuf_free(uintptr_t m) (shim over the inline rte_pktmbuf_free)} (linked critical: no heap access, no thread-state transition).
     *
     * @param m C parameter {@code m}.
     */
    public static void dta_pktmbuf_free(final long m)
    {
        final var mh$ = dta_pktmbuf_free.HANDLE;
        try
        {
            mh$.invokeExact(m);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_lcore_id
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_lcore_id");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_lcore_id}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_lcore_id$descriptor()
    {
        return dta_lcore_id.DESC;
    }

    /**
     * Downcall handle for {@code dta_lcore_id}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_lcore_id$handle()
    {
        return dta_lcore_id.HANDLE;
    }

    /**
     * Address of {@code dta_lcore_id}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_lcore_id$address()
    {
        return dta_lcore_id.ADDR;
    }

    /**
     * {@code unsigned int dta_lcore_id(void) (shim over the inline rte_lcore_id)} (linked critical: no heap access, no thread-state transition).
     *
     * @return the C return value.
     */
    public static int dta_lcore_id()
    {
        final var mh$ = dta_lcore_id.HANDLE;
        try
        {
            return (int)mh$.invokeExact();
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_log_to_stderr
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_log_to_stderr");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code dta_log_to_stderr}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_log_to_stderr$descriptor()
    {
        return dta_log_to_stderr.DESC;
    }

    /**
     * Downcall handle for {@code dta_log_to_stderr}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_log_to_stderr$handle()
    {
        return dta_log_to_stderr.HANDLE;
    }

    /**
     * Address of {@code dta_log_to_stderr}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_log_to_stderr$address()
    {
        return dta_log_to_stderr.ADDR;
    }

    /**
     * {@code int dta_log_to_stderr(void) (shim: rte_openlog_stream(stderr))}.
     *
     * @return the C return value.
     */
    public static int dta_log_to_stderr()
    {
        final var mh$ = dta_log_to_stderr.HANDLE;
        try
        {
            return (int)mh$.invokeExact();
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_eal_init
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_INT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_eal_init");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code dta_eal_init}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_eal_init$descriptor()
    {
        return dta_eal_init.DESC;
    }

    /**
     * Downcall handle for {@code dta_eal_init}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_eal_init$handle()
    {
        return dta_eal_init.HANDLE;
    }

    /**
     * Address of {@code dta_eal_init}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_eal_init$address()
    {
        return dta_eal_init.ADDR;
    }

    /**
     * {@code int dta_eal_init(int argc, char **argv) (shim: rte_eal_init with stdout sent to stderr, so that the
     * EAL's usage text never mixes into a command's output)}.
     *
     * @param argc the argument count.
     * @param argv the argument vector.
     * @return the C return value.
     */
    public static int dta_eal_init(final int argc, final MemorySegment argv)
    {
        final var mh$ = dta_eal_init.HANDLE;
        try
        {
            return (int)mh$.invokeExact(argc, argv);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_errno
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_errno");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code dta_errno}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_errno$descriptor()
    {
        return dta_errno.DESC;
    }

    /**
     * Downcall handle for {@code dta_errno}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_errno$handle()
    {
        return dta_errno.HANDLE;
    }

    /**
     * Address of {@code dta_errno}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_errno$address()
    {
        return dta_errno.ADDR;
    }

    /**
     * {@code int dta_errno(void) (shim: the per-lcore rte_errno)}.
     *
     * @return the C return value.
     */
    public static int dta_errno()
    {
        final var mh$ = dta_errno.HANDLE;
        try
        {
            return (int)mh$.invokeExact();
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_ring_enqueue_burst
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER, dpdk_h.C_POINTER, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_ring_enqueue_burst");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_ring_enqueue_burst}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_ring_enqueue_burst$descriptor()
    {
        return dta_ring_enqueue_burst.DESC;
    }

    /**
     * Downcall handle for {@code dta_ring_enqueue_burst}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_ring_enqueue_burst$handle()
    {
        return dta_ring_enqueue_burst.HANDLE;
    }

    /**
     * Address of {@code dta_ring_enqueue_burst}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_ring_enqueue_burst$address()
    {
        return dta_ring_enqueue_burst.ADDR;
    }

    /**
     * {@code unsigned int dta_ring_enqueue_burst(struct rte_ring *r, void *const *objs, unsigned int n) (shim over the inline rte_ring_enqueue_burst)} (linked critical: no heap access, no thread-state transition).
     *
     * @param r C parameter {@code r}.
     * @param objs C parameter {@code objs}.
     * @param n C parameter {@code n}.
     * @return the C return value.
     */
    public static int dta_ring_enqueue_burst(final MemorySegment r, final MemorySegment objs, final int n)
    {
        final var mh$ = dta_ring_enqueue_burst.HANDLE;
        try
        {
            return (int)mh$.invokeExact(r, objs, n);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_ring_dequeue_burst
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER, dpdk_h.C_POINTER, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_ring_dequeue_burst");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_ring_dequeue_burst}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_ring_dequeue_burst$descriptor()
    {
        return dta_ring_dequeue_burst.DESC;
    }

    /**
     * Downcall handle for {@code dta_ring_dequeue_burst}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_ring_dequeue_burst$handle()
    {
        return dta_ring_dequeue_burst.HANDLE;
    }

    /**
     * Address of {@code dta_ring_dequeue_burst}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_ring_dequeue_burst$address()
    {
        return dta_ring_dequeue_burst.ADDR;
    }

    /**
     * {@code unsigned int dta_ring_dequeue_burst(struct rte_ring *r, void **objs, unsigned int n) (shim over the inline rte_ring_dequeue_burst)} (linked critical: no heap access, no thread-state transition).
     *
     * @param r C parameter {@code r}.
     * @param objs C parameter {@code objs}.
     * @param n C parameter {@code n}.
     * @return the C return value.
     */
    public static int dta_ring_dequeue_burst(final MemorySegment r, final MemorySegment objs, final int n)
    {
        final var mh$ = dta_ring_dequeue_burst.HANDLE;
        try
        {
            return (int)mh$.invokeExact(r, objs, n);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_ring_count
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_ring_count");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_ring_count}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_ring_count$descriptor()
    {
        return dta_ring_count.DESC;
    }

    /**
     * Downcall handle for {@code dta_ring_count}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_ring_count$handle()
    {
        return dta_ring_count.HANDLE;
    }

    /**
     * Address of {@code dta_ring_count}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_ring_count$address()
    {
        return dta_ring_count.ADDR;
    }

    /**
     * {@code unsigned int dta_ring_count(const struct rte_ring *r) (shim over the inline rte_ring_count)} (linked critical: no heap access, no thread-state transition).
     *
     * @param r C parameter {@code r}.
     * @return the C return value.
     */
    public static int dta_ring_count(final MemorySegment r)
    {
        final var mh$ = dta_ring_count.HANDLE;
        try
        {
            return (int)mh$.invokeExact(r);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_eth_link_up
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_eth_link_up");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code dta_eth_link_up}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_eth_link_up$descriptor()
    {
        return dta_eth_link_up.DESC;
    }

    /**
     * Downcall handle for {@code dta_eth_link_up}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_eth_link_up$handle()
    {
        return dta_eth_link_up.HANDLE;
    }

    /**
     * Address of {@code dta_eth_link_up}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_eth_link_up$address()
    {
        return dta_eth_link_up.ADDR;
    }

    /**
     * {@code int dta_eth_link_up(uint16_t port_id)} (shim: {@code rte_eth_link_get_nowait}'s link status bit-field;
     * 1 up, 0 down, negative errno).
     *
     * @param port_id C parameter {@code port_id}.
     * @return the C return value.
     */
    public static int dta_eth_link_up(final short port_id)
    {
        final var mh$ = dta_eth_link_up.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_eth_dev_restart
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT, dpdk_h.C_INT,
            dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_eth_dev_restart");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code dta_eth_dev_restart}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_eth_dev_restart$descriptor()
    {
        return dta_eth_dev_restart.DESC;
    }

    /**
     * Downcall handle for {@code dta_eth_dev_restart}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_eth_dev_restart$handle()
    {
        return dta_eth_dev_restart.HANDLE;
    }

    /**
     * Address of {@code dta_eth_dev_restart}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_eth_dev_restart$address()
    {
        return dta_eth_dev_restart.ADDR;
    }

    /**
     * {@code int dta_eth_dev_restart(uint16_t port_id, int stop_first, int quiet)} (shim: {@code rte_eth_dev_stop}
     * when {@code stop_first}, then {@code rte_eth_dev_start}, DPDK's log held at CRIT for the call when
     * {@code quiet}; 0 or a negative errno).
     *
     * @param port_id    C parameter {@code port_id}.
     * @param stop_first C parameter {@code stop_first}.
     * @param quiet      C parameter {@code quiet}.
     * @return the C return value.
     */
    public static int dta_eth_dev_restart(final short port_id, final int stop_first, final int quiet)
    {
        final var mh$ = dta_eth_dev_restart.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id, stop_first, quiet);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_from_ring
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_from_ring");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_from_ring}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_from_ring$descriptor()
    {
        return rte_eth_from_ring.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_from_ring}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_from_ring$handle()
    {
        return rte_eth_from_ring.HANDLE;
    }

    /**
     * Address of {@code rte_eth_from_ring}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_from_ring$address()
    {
        return rte_eth_from_ring.ADDR;
    }

    /**
     * {@code int rte_eth_from_ring(struct rte_ring *r)} (librte_net_ring: a net_ring port whose rx and tx queue are that ring; its name is the ring's; returns the port id or -1).
     *
     * @param r C parameter {@code r}.
     * @return the C return value.
     */
    public static int rte_eth_from_ring(final MemorySegment r)
    {
        final var mh$ = rte_eth_from_ring.HANDLE;
        try
        {
            return (int)mh$.invokeExact(r);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_ring_feeder_create
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_POINTER, dpdk_h.C_POINTER, dpdk_h.C_POINTER, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_ring_feeder_create");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code dta_ring_feeder_create}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_ring_feeder_create$descriptor()
    {
        return dta_ring_feeder_create.DESC;
    }

    /**
     * Downcall handle for {@code dta_ring_feeder_create}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_ring_feeder_create$handle()
    {
        return dta_ring_feeder_create.HANDLE;
    }

    /**
     * Address of {@code dta_ring_feeder_create}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_ring_feeder_create$address()
    {
        return dta_ring_feeder_create.ADDR;
    }

    /**
     * {@code struct dta_ring_feeder *dta_ring_feeder_create(struct rte_ring *ring, struct rte_mbuf *const *mbufs, uint32_t count)} (shim: the benchmark's ring input, every mbuf enqueued with a reference of the feeder's own).
     *
     * @param ring C parameter {@code ring}.
     * @param mbufs C parameter {@code mbufs}.
     * @param count C parameter {@code count}.
     * @return the C return value.
     */
    public static MemorySegment dta_ring_feeder_create(final MemorySegment ring, final MemorySegment mbufs, final int count)
    {
        final var mh$ = dta_ring_feeder_create.HANDLE;
        try
        {
            return (MemorySegment)mh$.invokeExact(ring, mbufs, count);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_ring_feed
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_ring_feed");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_ring_feed}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_ring_feed$descriptor()
    {
        return dta_ring_feed.DESC;
    }

    /**
     * Downcall handle for {@code dta_ring_feed}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_ring_feed$handle()
    {
        return dta_ring_feed.HANDLE;
    }

    /**
     * Address of {@code dta_ring_feed}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_ring_feed$address()
    {
        return dta_ring_feed.ADDR;
    }

    /**
     * {@code uint32_t dta_ring_feed(struct dta_ring_feeder *f)} (shim: enqueues again what was consumed since the last call) (linked critical: no heap access, no thread-state transition).
     *
     * @param f C parameter {@code f}.
     * @return the C return value.
     */
    public static int dta_ring_feed(final MemorySegment f)
    {
        final var mh$ = dta_ring_feed.HANDLE;
        try
        {
            return (int)mh$.invokeExact(f);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_ring_feeder_stats
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(dpdk_h.C_POINTER, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_ring_feeder_stats");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC, CRITICAL);
    }

    /**
     * Function descriptor for {@code dta_ring_feeder_stats}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_ring_feeder_stats$descriptor()
    {
        return dta_ring_feeder_stats.DESC;
    }

    /**
     * Downcall handle for {@code dta_ring_feeder_stats}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_ring_feeder_stats$handle()
    {
        return dta_ring_feeder_stats.HANDLE;
    }

    /**
     * Address of {@code dta_ring_feeder_stats}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_ring_feeder_stats$address()
    {
        return dta_ring_feeder_stats.ADDR;
    }

    /**
     * {@code void dta_ring_feeder_stats(const struct dta_ring_feeder *f, uint64_t *out)} (shim: feeds, mbufs enqueued again, feeds that found the ring empty, lowest fill) (linked critical: no heap access, no thread-state transition).
     *
     * @param f C parameter {@code f}.
     * @param out C parameter {@code out}.
     */
    public static void dta_ring_feeder_stats(final MemorySegment f, final MemorySegment out)
    {
        final var mh$ = dta_ring_feeder_stats.HANDLE;
        try
        {
            mh$.invokeExact(f, out);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_ring_feeder_free
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_ring_feeder_free");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code dta_ring_feeder_free}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_ring_feeder_free$descriptor()
    {
        return dta_ring_feeder_free.DESC;
    }

    /**
     * Downcall handle for {@code dta_ring_feeder_free}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_ring_feeder_free$handle()
    {
        return dta_ring_feeder_free.HANDLE;
    }

    /**
     * Address of {@code dta_ring_feeder_free}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_ring_feeder_free$address()
    {
        return dta_ring_feeder_free.ADDR;
    }

    /**
     * {@code void dta_ring_feeder_free(struct dta_ring_feeder *f)} (shim: drains the ring and drops every reference the feeder holds).
     *
     * @param f C parameter {@code f}.
     */
    public static void dta_ring_feeder_free(final MemorySegment f)
    {
        final var mh$ = dta_ring_feeder_free.HANDLE;
        try
        {
            mh$.invokeExact(f);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }
}
