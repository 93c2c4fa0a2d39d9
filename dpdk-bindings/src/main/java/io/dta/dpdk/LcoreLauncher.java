package io.dta.dpdk;

import io.dta.dpdk.ffi.DpdkLayout;
import io.dta.dpdk.ffi.dpdk_h;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Runs Java code on EAL worker lcores: {@code rte_eal_remote_launch} of one upcall stub, {@code int (void *)}, whose
 * argument is the lcore id and which runs the {@link Runnable} kept for that lcore. The body runs on the lcore's own
 * EAL thread (pinned to its CPU, with its lcore id and per-lcore mempool cache), which the JVM attaches at the first
 * upcall. Nothing thrown by the body crosses the upcall (the JVM would end the process): it is kept and thrown by
 * {@link #join(int)}.
 */
final class LcoreLauncher
{
    private static final int EBUSY = 16;

    /** What each lcore runs (set before the launch, cleared by the join): at most one body per lcore at a time. */
    private static final AtomicReferenceArray<Runnable> BODIES = new AtomicReferenceArray<>(DpdkLayout.RTE_MAX_LCORE);
    /** What each lcore's body threw, until the join reports it. */
    private static final AtomicReferenceArray<Throwable> FAILURES =
        new AtomicReferenceArray<>(DpdkLayout.RTE_MAX_LCORE);

    private LcoreLauncher()
    {
    }

    /** The upcall stub, made on first launch and kept for the life of the process (EAL threads may call it). */
    private static final class Stub
    {
        static final MemorySegment ADDRESS = create();

        private static MemorySegment create()
        {
            try
            {
                return Linker.nativeLinker().upcallStub(
                    MethodHandles.lookup().findStatic(LcoreLauncher.class, "run",
                        MethodType.methodType(int.class, MemorySegment.class)),
                    FunctionDescriptor.of(dpdk_h.C_INT, dpdk_h.C_POINTER),
                    Arena.global());
            }
            catch (final ReflectiveOperationException ex)
            {
                throw new IllegalStateException("cannot make the lcore upcall stub", ex);
            }
        }
    }

    /**
     * The upcall: on the lcore's EAL thread. Must not throw.
     *
     * @param arg the lcore id, as an address.
     * @return 0 when the body returned, -1 when it threw.
     */
    private static int run(final MemorySegment arg)
    {
        final int lcore = (int)arg.address();
        try
        {
            Thread.currentThread().setName("dpdk-lcore-" + lcore);
            BODIES.get(lcore).run();
            return 0;
        }
        catch (final Throwable ex)
        {
            FAILURES.set(lcore, ex);
            return -1;
        }
    }

    /**
     * @param lcore a worker lcore of the running EAL (see {@link Eal#workerLcores()}).
     * @param body  what to run there.
     * @throws IllegalStateException when the lcore runs a body not joined yet.
     * @throws DpdkException         when EAL refuses the launch.
     */
    static void launch(final int lcore, final Runnable body)
    {
        if (!BODIES.compareAndSet(lcore, null, body))
        {
            throw new IllegalStateException("lcore " + lcore + " still has a body launched before: join it first");
        }
        FAILURES.set(lcore, null);
        final int rc = dpdk_h.rte_eal_remote_launch(Stub.ADDRESS, MemorySegment.ofAddress(lcore), lcore);
        if (rc < 0)
        {
            BODIES.set(lcore, null);
            throw new DpdkException("rte_eal_remote_launch on lcore " + lcore + " failed: " + Eal.strerror(-rc) +
                (-EBUSY == rc ? " (the lcore is running something else)" : ""), -rc);
        }
    }

    /**
     * @param lcore a worker lcore.
     * @throws CompletionException with what the body threw as its cause.
     */
    static void join(final int lcore)
    {
        // Spins on the lcore's state (rte_pause) until the body has returned; 0 at once when nothing runs there.
        dpdk_h.rte_eal_wait_lcore(lcore);
        final Throwable failure = FAILURES.getAndSet(lcore, null);
        BODIES.set(lcore, null);
        if (null != failure)
        {
            throw new CompletionException("the body launched on lcore " + lcore + " threw " + failure, failure);
        }
    }

    /**
     * @param lcore a worker lcore.
     * @return true while a body launched there has not returned.
     */
    static boolean running(final int lcore)
    {
        return 0 != dpdk_h.rte_eal_get_lcore_state(lcore);
    }
}
