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
    int servicePort)
{
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
        return new RegionConfig(path, localQpn, qpn, rkey, address, length, startPsn, udpSourcePort, servicePort);
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
