package io.dta.config;

/**
 * One remote memory region on a collector and the RC queue pair that writes it. Every region (Key-Write store,
 * counter store, postcard store, each list, each sketch) has its own QP.
 *
 * @param path          key path of the region in the configuration, e.g. {@code collectors[0].lists[1]}, for logs.
 * @param localQpn      the appliance's own QPN for this QP (responses are demultiplexed by it), 24-bit.
 * @param qpn           the collector's QPN (BTH DestQP), 24-bit.
 * @param rkey          R_Key of the region, 32-bit unsigned.
 * @param address       base virtual address, 64-bit unsigned, 8-byte aligned.
 * @param length        length in bytes, a positive multiple of the region's entry size.
 * @param startPsn      first PSN sent, 24-bit, default 0.
 * @param udpSourcePort UDP source port of the QP's frames, default {@code 0xC000 | (localQpn & 0x3FFF)}.
 * @param servicePort   0 for a static region (every QP parameter configured); otherwise the collector's RDMA-CM
 *                      service port, and {@code qpn}, {@code rkey} and {@code address} are 0 until learned by the
 *                      connection set-up (translation.md §8), see {@link #connected(int, long, long)}.
 * @param workerQueuePairs the QPs of workers 1, 2, … of a static region (worker 0 uses the region's own
 *                      {@code localQpn}, {@code qpn}, {@code startPsn} and {@code udpSourcePort}); empty for a
 *                      negotiated region, whose workers' QPs are derived ({@link #forWorker(int)}).
 */
public record RegionConfig(
    String path,
    int localQpn,
    int qpn,
    long rkey,
    long address,
    long length,
    int startPsn,
    int udpSourcePort,
    int servicePort,
    java.util.List<WorkerQueuePair> workerQueuePairs)
{
    /**
     * Bits 16–23 of a negotiated region's local QPN carry its worker's index: worker {@code w}'s QP is
     * {@code localQpn + (w << 16)} (modulo 2^24).
     */
    public static final int WORKER_QPN_SHIFT = 16;

    /**
     * Copies the worker list so the record stays immutable.
     */
    public RegionConfig
    {
        workerQueuePairs = null == workerQueuePairs ? java.util.List.of() : java.util.List.copyOf(workerQueuePairs);
    }

    /**
     * A region whose workers' QPs are derived or absent.
     *
     * @param path          key path of the region.
     * @param localQpn      the appliance's QPN.
     * @param qpn           the collector's QPN.
     * @param rkey          R_Key.
     * @param address       base virtual address.
     * @param length        length in bytes.
     * @param startPsn      first PSN sent.
     * @param udpSourcePort UDP source port.
     * @param servicePort   0 for a static region, else the collector's RDMA-CM service port.
     */
    public RegionConfig(
        final String path,
        final int localQpn,
        final int qpn,
        final long rkey,
        final long address,
        final long length,
        final int startPsn,
        final int udpSourcePort,
        final int servicePort)
    {
        this(path, localQpn, qpn, rkey, address, length, startPsn, udpSourcePort, servicePort, java.util.List.of());
    }

    /**
     * A static region (no service port).
     *
     * @param path          key path of the region.
     * @param localQpn      the appliance's QPN.
     * @param qpn           the collector's QPN.
     * @param rkey          R_Key.
     * @param address       base virtual address.
     * @param length        length in bytes.
     * @param startPsn      first PSN sent.
     * @param udpSourcePort UDP source port.
     */
    public RegionConfig(
        final String path,
        final int localQpn,
        final int qpn,
        final long rkey,
        final long address,
        final long length,
        final int startPsn,
        final int udpSourcePort)
    {
        this(path, localQpn, qpn, rkey, address, length, startPsn, udpSourcePort, 0);
    }

    /**
     * @return true when the QP parameters come from connection set-up with the collector (a service port is set).
     */
    public boolean negotiated()
    {
        return 0 != servicePort;
    }

    /**
     * The same region with the QP parameters learned from the collector; the service port is kept, so the result
     * still says it was negotiated.
     *
     * @param qpn     the collector's QPN.
     * @param rkey    the region's R_Key.
     * @param address the region's base virtual address.
     * @return a new region record.
     */
    public RegionConfig connected(final int qpn, final long rkey, final long address)
    {
        return new RegionConfig(path, localQpn, qpn, rkey, address, length, startPsn, udpSourcePort, servicePort,
            workerQueuePairs);
    }

    /**
     * The region as worker {@code worker} writes it: the same memory through that worker's own QP. Worker 0 uses
     * the region's own QP settings; a static region's worker {@code w ≥ 1} takes entry {@code w - 1} of
     * {@link #workerQueuePairs()}; a negotiated region's worker {@code w} uses local QPN
     * {@code (localQpn + (w << 16)) mod 2^24}, its default UDP source port, and the same service port and starting
     * PSN (the collector grants each connection its own QP).
     *
     * @param worker the worker's index, 0 or more.
     * @return the region with that worker's QP settings and no worker list.
     * @throws IllegalArgumentException when a static region has no QP for that worker (see
     *                                  {@link ApplianceConfig#workerProblems(int)}).
     */
    public RegionConfig forWorker(final int worker)
    {
        if (0 == worker)
        {
            return workerQueuePairs.isEmpty() ? this : new RegionConfig(path, localQpn, qpn, rkey, address, length,
                startPsn, udpSourcePort, servicePort);
        }
        if (negotiated())
        {
            final int qpn = workerLocalQpn(localQpn, worker);
            final int port = udpSourcePort == defaultUdpSourcePort(localQpn) ? defaultUdpSourcePort(qpn) :
                udpSourcePort;
            return new RegionConfig(path, qpn, this.qpn, rkey, address, length, startPsn, port, servicePort);
        }
        if (worker > workerQueuePairs.size())
        {
            throw new IllegalArgumentException(path + ".workerQueuePairs: no queue pair for worker " + worker);
        }
        final WorkerQueuePair qp = workerQueuePairs.get(worker - 1);
        return new RegionConfig(path, qp.localQpn(), qp.qpn(), rkey, address, length, qp.startPsn(),
            qp.udpSourcePort(), 0);
    }

    /**
     * @param localQpn the region's own local QPN (worker 0's).
     * @param worker   the worker's index.
     * @return the local QPN of a negotiated region's worker: {@code (localQpn + (worker << 16)) mod 2^24}.
     */
    public static int workerLocalQpn(final int localQpn, final int worker)
    {
        return (localQpn + (worker << WORKER_QPN_SHIFT)) & 0xFFFFFF;
    }

    /**
     * Required alignment of every region's base address (atomics need 8 bytes).
     */
    public static final int ADDRESS_ALIGNMENT = 8;

    /**
     * The default UDP source port for a local QPN, constant per QP so ECMP keeps a QP on one path.
     *
     * @param localQpn the appliance's QPN.
     * @return {@code 0xC000 | (localQpn & 0x3FFF)}.
     */
    public static int defaultUdpSourcePort(final int localQpn)
    {
        return 0xC000 | (localQpn & 0x3FFF);
    }

    /**
     * First address past the region (unsigned; 0 when the region ends at the top of the address space).
     *
     * @return {@code address + length}.
     */
    public long end()
    {
        return address + length;
    }
}
