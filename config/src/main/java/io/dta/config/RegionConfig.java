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
 */
public record RegionConfig(
    String path, int localQpn, int qpn, long rkey, long address, long length, int startPsn, int udpSourcePort)
{
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
