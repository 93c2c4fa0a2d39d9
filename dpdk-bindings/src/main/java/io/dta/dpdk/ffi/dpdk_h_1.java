package io.dta.dpdk.ffi;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * The second part of the hand-written, jextract-style bindings ({@link dpdk_h} extends it, as jextract splits a large
 * header class): launching functions on EAL worker lcores ({@code rte_launch.h}, {@code rte_lcore.h}), ports over
 * several rings ({@code rte_eth_ring.h}), the RSS configuration in force, and the shim's undoing of a ring feeder
 * ({@code dta_ring_feeder_release}). The same shape as {@link dpdk_h}: one
 * nested holder per function, resolved on first use, and {@code name$descriptor()}, {@code name$handle()},
 * {@code name$address()}, {@code name(...)}. Call them through {@link dpdk_h}.
 */
@SuppressWarnings({ "checkstyle:MethodName", "checkstyle:TypeName" })
public class dpdk_h_1
{
    dpdk_h_1()
    {
    }

    private static final class rte_get_next_lcore
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_INT, dpdk_h.C_INT, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_get_next_lcore");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_get_next_lcore}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_get_next_lcore$descriptor()
    {
        return rte_get_next_lcore.DESC;
    }

    /**
     * Downcall handle for {@code rte_get_next_lcore}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_get_next_lcore$handle()
    {
        return rte_get_next_lcore.HANDLE;
    }

    /**
     * Address of {@code rte_get_next_lcore}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_get_next_lcore$address()
    {
        return rte_get_next_lcore.ADDR;
    }

    /**
     * {@code unsigned int rte_get_next_lcore(unsigned int i, int skip_main, int wrap)}: the next enabled lcore after {@code i}, or {@code RTE_MAX_LCORE} past the last one without {@code wrap}.
     *
     * @param i C parameter {@code i}.
     * @param skip_main C parameter {@code skip_main}.
     * @param wrap C parameter {@code wrap}.
     * @return the C return value.
     */
    public static int rte_get_next_lcore(final int i, final int skip_main, final int wrap)
    {
        final var mh$ = rte_get_next_lcore.HANDLE;
        try
        {
            return (int)mh$.invokeExact(i, skip_main, wrap);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_get_main_lcore
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_get_main_lcore");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_get_main_lcore}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_get_main_lcore$descriptor()
    {
        return rte_get_main_lcore.DESC;
    }

    /**
     * Downcall handle for {@code rte_get_main_lcore}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_get_main_lcore$handle()
    {
        return rte_get_main_lcore.HANDLE;
    }

    /**
     * Address of {@code rte_get_main_lcore}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_get_main_lcore$address()
    {
        return rte_get_main_lcore.ADDR;
    }

    /**
     * {@code unsigned int rte_get_main_lcore(void)}: the main lcore's id.
     *
     * @return the C return value.
     */
    public static int rte_get_main_lcore()
    {
        final var mh$ = rte_get_main_lcore.HANDLE;
        try
        {
            return (int)mh$.invokeExact();
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eal_remote_launch
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER, dpdk_h.C_POINTER, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eal_remote_launch");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eal_remote_launch}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eal_remote_launch$descriptor()
    {
        return rte_eal_remote_launch.DESC;
    }

    /**
     * Downcall handle for {@code rte_eal_remote_launch}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eal_remote_launch$handle()
    {
        return rte_eal_remote_launch.HANDLE;
    }

    /**
     * Address of {@code rte_eal_remote_launch}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eal_remote_launch$address()
    {
        return rte_eal_remote_launch.ADDR;
    }

    /**
     * {@code int rte_eal_remote_launch(lcore_function_t *f, void *arg, unsigned worker_id)}: runs {@code f(arg)} on the worker lcore's EAL thread; 0, or {@code -EBUSY} when it is not waiting.
     *
     * @param f C parameter {@code f}.
     * @param arg C parameter {@code arg}.
     * @param worker_id C parameter {@code worker_id}.
     * @return the C return value.
     */
    public static int rte_eal_remote_launch(final MemorySegment f, final MemorySegment arg, final int worker_id)
    {
        final var mh$ = rte_eal_remote_launch.HANDLE;
        try
        {
            return (int)mh$.invokeExact(f, arg, worker_id);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eal_wait_lcore
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eal_wait_lcore");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eal_wait_lcore}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eal_wait_lcore$descriptor()
    {
        return rte_eal_wait_lcore.DESC;
    }

    /**
     * Downcall handle for {@code rte_eal_wait_lcore}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eal_wait_lcore$handle()
    {
        return rte_eal_wait_lcore.HANDLE;
    }

    /**
     * Address of {@code rte_eal_wait_lcore}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eal_wait_lcore$address()
    {
        return rte_eal_wait_lcore.ADDR;
    }

    /**
     * {@code int rte_eal_wait_lcore(unsigned worker_id)}: spins until the worker lcore is waiting again; the launched function's return value, 0 when none ran.
     *
     * @param worker_id C parameter {@code worker_id}.
     * @return the C return value.
     */
    public static int rte_eal_wait_lcore(final int worker_id)
    {
        final var mh$ = rte_eal_wait_lcore.HANDLE;
        try
        {
            return (int)mh$.invokeExact(worker_id);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eal_get_lcore_state
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eal_get_lcore_state");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eal_get_lcore_state}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eal_get_lcore_state$descriptor()
    {
        return rte_eal_get_lcore_state.DESC;
    }

    /**
     * Downcall handle for {@code rte_eal_get_lcore_state}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eal_get_lcore_state$handle()
    {
        return rte_eal_get_lcore_state.HANDLE;
    }

    /**
     * Address of {@code rte_eal_get_lcore_state}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eal_get_lcore_state$address()
    {
        return rte_eal_get_lcore_state.ADDR;
    }

    /**
     * {@code enum rte_lcore_state_t rte_eal_get_lcore_state(unsigned int worker_id)}: {@code WAIT} (0) or {@code RUNNING} (1).
     *
     * @param worker_id C parameter {@code worker_id}.
     * @return the C return value.
     */
    public static int rte_eal_get_lcore_state(final int worker_id)
    {
        final var mh$ = rte_eal_get_lcore_state.HANDLE;
        try
        {
            return (int)mh$.invokeExact(worker_id);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_from_rings
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER, dpdk_h.C_POINTER, dpdk_h.C_INT, dpdk_h.C_POINTER, dpdk_h.C_INT, dpdk_h.C_INT);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_from_rings");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_from_rings}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_from_rings$descriptor()
    {
        return rte_eth_from_rings.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_from_rings}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_from_rings$handle()
    {
        return rte_eth_from_rings.HANDLE;
    }

    /**
     * Address of {@code rte_eth_from_rings}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_from_rings$address()
    {
        return rte_eth_from_rings.ADDR;
    }

    /**
     * {@code int rte_eth_from_rings(const char *name, struct rte_ring *const rx_queues[], const unsigned nb_rx_queues, struct rte_ring *const tx_queues[], const unsigned nb_tx_queues, const unsigned numa_node)}: librte_net_ring: a net_ring port named {@code name} whose rx queue i is {@code rx_queues[i]} and tx queue i {@code tx_queues[i]}; the port id, or -1 with {@code rte_errno} set.
     *
     * @param name C parameter {@code name}.
     * @param rx_queues C parameter {@code rx_queues}.
     * @param nb_rx_queues C parameter {@code nb_rx_queues}.
     * @param tx_queues C parameter {@code tx_queues}.
     * @param nb_tx_queues C parameter {@code nb_tx_queues}.
     * @param numa_node C parameter {@code numa_node}.
     * @return the C return value.
     */
    public static int rte_eth_from_rings(final MemorySegment name, final MemorySegment rx_queues, final int nb_rx_queues, final MemorySegment tx_queues, final int nb_tx_queues, final int numa_node)
    {
        final var mh$ = rte_eth_from_rings.HANDLE;
        try
        {
            return (int)mh$.invokeExact(name, rx_queues, nb_rx_queues, tx_queues, nb_tx_queues, numa_node);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class rte_eth_dev_rss_hash_conf_get
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_SHORT, dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("rte_eth_dev_rss_hash_conf_get");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code rte_eth_dev_rss_hash_conf_get}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor rte_eth_dev_rss_hash_conf_get$descriptor()
    {
        return rte_eth_dev_rss_hash_conf_get.DESC;
    }

    /**
     * Downcall handle for {@code rte_eth_dev_rss_hash_conf_get}.
     *
     * @return the handle.
     */
    public static MethodHandle rte_eth_dev_rss_hash_conf_get$handle()
    {
        return rte_eth_dev_rss_hash_conf_get.HANDLE;
    }

    /**
     * Address of {@code rte_eth_dev_rss_hash_conf_get}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment rte_eth_dev_rss_hash_conf_get$address()
    {
        return rte_eth_dev_rss_hash_conf_get.ADDR;
    }

    /**
     * {@code int rte_eth_dev_rss_hash_conf_get(uint16_t port_id, struct rte_eth_rss_conf *rss_conf)}: the RSS hash configuration in force (hash functions, and the key when {@code rss_key} is not NULL).
     *
     * @param port_id C parameter {@code port_id}.
     * @param rss_conf C parameter {@code rss_conf}.
     * @return the C return value.
     */
    public static int rte_eth_dev_rss_hash_conf_get(final short port_id, final MemorySegment rss_conf)
    {
        final var mh$ = rte_eth_dev_rss_hash_conf_get.HANDLE;
        try
        {
            return (int)mh$.invokeExact(port_id, rss_conf);
        }
        catch (final Throwable ex$)
        {
            throw new AssertionError("should not reach here", ex$);
        }
    }

    private static final class dta_ring_feeder_release
    {
        static final FunctionDescriptor DESC = FunctionDescriptor.ofVoid(dpdk_h.C_POINTER);
        static final MemorySegment ADDR = dpdk_h.findOrThrow("dta_ring_feeder_release");
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(ADDR, DESC);
    }

    /**
     * Function descriptor for {@code dta_ring_feeder_release}.
     *
     * @return the descriptor.
     */
    public static FunctionDescriptor dta_ring_feeder_release$descriptor()
    {
        return dta_ring_feeder_release.DESC;
    }

    /**
     * Downcall handle for {@code dta_ring_feeder_release}.
     *
     * @return the handle.
     */
    public static MethodHandle dta_ring_feeder_release$handle()
    {
        return dta_ring_feeder_release.HANDLE;
    }

    /**
     * Address of {@code dta_ring_feeder_release}.
     *
     * @return the symbol's address.
     */
    public static MemorySegment dta_ring_feeder_release$address()
    {
        return dta_ring_feeder_release.ADDR;
    }

    /**
     * {@code void dta_ring_feeder_release(struct dta_ring_feeder *f)} (shim: undoes {@code dta_ring_feeder_create}
     * before anything was received, the mbufs the caller's again).
     *
     * @param f C parameter {@code f}.
     */
    public static void dta_ring_feeder_release(final MemorySegment f)
    {
        final var mh$ = dta_ring_feeder_release.HANDLE;
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
